// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's innerText is the text a person sees
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  type ConsoleServer,
  collectPageErrors,
  launchBrowser,
  serveConsole,
  type TestBrowser,
} from '../src/testing/internal/browser.ts';
import { waitUntil } from '../src/testing/internal/index.ts';

const hostileTitle =
  '<img src=x onerror="window.__pwned=\'title\'">Otter <script>window.__pwned=1</script>';
const hostileText = [
  '# Otter mascot',
  '',
  'The Yeoul otter mascot is called Mulgyeol <script>window.__pwned="script"</script>.',
  'The otter mascot badge <img src=x onerror="window.__pwned=\'img\'"> is blue.',
  'More about the otter mascot: [click me](javascript:window.__pwned="link") and <a href="javascript:alert(1)">this</a>.',
].join('\n');

async function openDocuments(page: Page) {
  await page.getByTestId('documents').click();
  await page.getByTestId('document-upload').waitFor({ state: 'attached' });
}

describe('web console: documents (offline model, real browser)', () => {
  let server: ConsoleServer;
  let browser: TestBrowser;
  let page: Page;
  let errors: string[];
  const dialogs: string[] = [];

  before(async () => {
    browser = await launchBrowser();
    server = await serveConsole({ YEOUL_SAMPLE_KNOWLEDGE: 'false' });
    page = await browser.newPage();
    errors = collectPageErrors(page);
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(server.url);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('uploads several files at once and lists them', async () => {
    await openDocuments(page);
    await page.getByTestId('document-upload').setInputFiles([
      {
        name: 'river-policy.md',
        mimeType: 'text/markdown',
        buffer: Buffer.from('# River policy\n\nBoats on the Yeoul river must carry two paddles.\n'),
      },
      {
        name: 'tea.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('Barley tea is served in the Yeoul office every Friday.\n'),
      },
    ]);
    const items = page.getByTestId('document-item');
    await waitUntil(async () => (await items.count()) === 2, 'two documents');
    assert.match(await page.locator('.documents-view').innerText(), /River policy/);
  });

  it('takes files dropped on the upload zone', async () => {
    const dropped = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['Kayaks are stored in the north shed.'], 'kayaks.txt'));
      return transfer;
    });
    await page.locator('.dropzone').dispatchEvent('drop', { dataTransfer: dropped });
    const items = page.getByTestId('document-item');
    await waitUntil(async () => (await items.count()) === 3, 'the dropped document');
    await items.filter({ hasText: 'kayaks' }).getByTestId('document-delete').click();
    await waitUntil(async () => (await items.count()) === 2, 'the dropped document deleted');
  });

  it('searches the knowledge base and shows passages with scores', async () => {
    const search = page.getByTestId('document-search');
    await search.fill('paddles');
    await search.press('Enter');
    const hit = page.locator('.hit').first();
    await hit.waitFor();
    assert.match(await hit.innerText(), /two paddles/);
    assert.match(await hit.innerText(), /score \d/);
  });

  it('answers from an uploaded document and cites it', async () => {
    await page.getByTestId('new-session').click();
    await page
      .getByTestId('chat-input')
      .fill('How many paddles must boats on the Yeoul river carry?');
    await page.getByTestId('chat-input').press('Enter');
    const answer = page.locator('[data-testid="message"][data-role="assistant"]').last();
    await waitUntil(async () => (await answer.getAttribute('aria-busy')) === 'false', 'the answer');
    assert.match(await answer.innerText(), /two paddles/);
    const sources = answer.getByTestId('sources');
    await sources.waitFor({ timeout: 5_000 });
    assert.match(await sources.innerText(), /River policy/);
  });

  it('shows hostile titles and texts as text, and runs none of their script', async () => {
    const stored = await fetch(`${server.url}/api/documents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        documents: [{ id: 'otter', title: hostileTitle, text: hostileText }],
      }),
    });
    assert.equal(stored.status, 201);
    await page.getByTestId('documents').click();
    await page.getByTestId('document-upload').setInputFiles({
      name: 'hostile.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from(`# ${hostileTitle}\n\n${hostileText}\n`),
    });
    const items = page.getByTestId('document-item');
    await waitUntil(async () => (await items.count()) === 4, 'the hostile documents listed');
    assert.match(
      await items.filter({ hasText: 'otter' }).first().innerText(),
      /<img src=x onerror=/,
    );
    const search = page.getByTestId('document-search');
    await search.fill('otter mascot badge');
    await search.press('Enter');
    await waitUntil(
      async () => /onerror=/.test(await page.locator('.hits').innerText()),
      'the hostile passage shown as text',
    );
    await page.getByTestId('new-session').click();
    await page
      .getByTestId('chat-input')
      .fill('What is the otter mascot called and what about its badge?');
    await page.getByTestId('chat-input').press('Enter');
    const answer = page.locator('[data-testid="message"][data-role="assistant"]').last();
    await waitUntil(async () => (await answer.getAttribute('aria-busy')) === 'false', 'the answer');
    assert.match(await answer.innerText(), /Mulgyeol/);
    for (const link of await page.locator('.answer a').all()) {
      assert.doesNotMatch((await link.getAttribute('href')) ?? '', /javascript:/i);
      await link.click({ modifiers: ['Shift'] }).catch(() => undefined);
    }
    await page.waitForTimeout(300);
    assert.equal(await page.locator('.main img, .main script, .inspector img').count(), 0);
    assert.equal(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned), undefined);
    assert.deepEqual(dialogs, []);
  });

  it('deletes a document', async () => {
    await openDocuments(page);
    const items = page.getByTestId('document-item');
    await waitUntil(async () => (await items.count()) === 4, 'the documents listed');
    const count = await items.count();
    await items.first().getByTestId('document-delete').click();
    await waitUntil(async () => (await items.count()) === count - 1, 'one document fewer');
  });

  it('logged no errors in the browser console', () => {
    assert.deepEqual(errors, []);
  });
});
