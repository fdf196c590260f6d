// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's innerText is the text a person sees
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import {
  askConsole as ask,
  type ConsoleServer,
  collectPageErrors,
  launchBrowser,
  serveConsole,
  type TestBrowser,
} from '../src/testing/internal/browser.ts';
import { waitUntil } from '../src/testing/internal/index.ts';

const question = '123 * 456 계산해줘';

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string): Map<string, string[]> {
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name as string, values]),
  );
}

describe('web console: chat (offline model, real browser)', () => {
  let server: ConsoleServer;
  let browser: TestBrowser;
  let page: Page;
  let errors: string[];

  before(async () => {
    browser = await launchBrowser();
    server = await serveConsole();
    page = await browser.newPage();
    errors = collectPageErrors(page);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('serves the page with a CSP that allows no inline script, its modules and a favicon', async () => {
    const page = await fetch(`${server.url}/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    const csp = directives(page.headers.get('content-security-policy') ?? '');
    assert.ok(csp.has('script-src'), 'the policy names script-src');
    assert.ok(!csp.get('script-src')?.includes("'unsafe-inline'"));
    assert.ok(!csp.get('default-src')?.includes("'unsafe-inline'"));
    const module = await fetch(`${server.url}/web/chat/use-chat.ts`);
    assert.match(module.headers.get('content-type') ?? '', /javascript/);
    assert.doesNotMatch(await module.text(), /export interface ChatController/);
    const icon = await fetch(`${server.url}/favicon.ico`);
    assert.equal(icon.status, 200);
    for (const path of [
      '/web/%2e%2e/server/config.ts',
      '/web/chat/chat-items.test.ts',
      '/vendor/__proto__',
      '/vendor/mermaid/..%2F..%2Fpackage.json',
    ])
      assert.equal((await fetch(server.url + path)).status, 404, path);
  });

  it('keeps the first load under 150 KB of gzipped JavaScript, without Mermaid', async () => {
    const scripts = new Map<string, number>();
    const onResponse = async (response: import('playwright-core').Response) => {
      const url = new URL(response.url());
      if (url.origin !== server.url || response.request().resourceType() !== 'script') return;
      scripts.set(url.pathname, gzipSync(await response.body()).length);
    };
    page.on('response', onResponse);
    await page.goto(server.url, { waitUntil: 'networkidle' });
    page.off('response', onResponse);
    const total = [...scripts.values()].reduce((sum, size) => sum + size, 0);
    console.log(
      `first-load JavaScript: ${scripts.size} files, ${(total / 1024).toFixed(1)} KB gzipped`,
    );
    assert.ok(scripts.has('/web/main.ts'));
    assert.ok(total <= 150 * 1024, `${total} bytes gzipped`);
    assert.ok(![...scripts.keys()].some((path) => path.includes('mermaid')));
  });

  it('shows the offline model in the status bar with how to configure a real one', async () => {
    const status = page.getByTestId('status');
    await waitUntil(async () => /offline/.test(await status.innerText()), 'the model name');
    assert.match(await status.innerText(), /OPENAI_API_KEY/);
  });

  it('streams the answer with the tool call as a card, and shows the run inspector', async () => {
    const send = page.getByTestId('send');
    assert.equal(await send.isDisabled(), true, 'send is disabled while the box is empty');
    const streamed = page.waitForRequest((request) => request.url().endsWith('/api/agent/stream'));
    const answer = await ask(page, question);
    assert.equal((await streamed).method(), 'POST');
    assert.match(await answer.innerText(), /56,088/);
    const card = answer.getByTestId('tool-card');
    assert.match(await card.innerText(), /calculator/);
    assert.match(await card.innerText(), /123 \* 456/);
    assert.match(await card.innerText(), /56088/);
    assert.match(await card.innerText(), /\d+ ms/);
    const inspector = page.getByTestId('inspector');
    await inspector.waitFor();
    await waitUntil(
      async () => (await inspector.locator('[data-node]').count()) >= 5,
      'the inspector nodes',
    );
    const nodes = await inspector
      .locator('[data-node]')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-node')));
    assert.deepEqual(nodes, ['router', 'memory', 'agent', 'tools', 'agent']);
  });

  it('breaks the line on Shift+Enter and sends nothing', async () => {
    const input = page.getByTestId('chat-input');
    await input.fill('line one');
    await input.press('Shift+Enter');
    await input.pressSequentially('line two');
    assert.equal(await input.inputValue(), 'line one\nline two');
    assert.equal(await page.locator('[data-role="user"]').count(), 1);
    assert.equal(await page.getByTestId('send').isDisabled(), false);
    await input.fill('');
  });

  it('returns to the same conversation after a reload', async () => {
    await page.reload();
    const answer = page.locator('[data-testid="message"][data-role="assistant"]');
    await waitUntil(
      async () =>
        /56,088/.test(
          await answer
            .first()
            .innerText()
            .catch(() => ''),
        ),
      'the stored answer',
    );
    assert.equal(await page.locator('[data-role="user"]').first().innerText(), question);
    assert.match(await answer.first().getByTestId('tool-card').innerText(), /calculator/);
    const item = page.getByTestId('session-item');
    await waitUntil(async () => (await item.count()) === 1, 'the session in the list');
    assert.equal((await item.innerText()).trim(), question);
  });

  it('opens the inspector of a stored turn from its message', async () => {
    await page.getByTestId('open-inspector').first().click();
    const inspector = page.getByTestId('inspector');
    await waitUntil(
      async () => (await inspector.locator('[data-node]').count()) >= 5,
      'stored steps in the inspector',
    );
    const nodes = await inspector
      .locator('[data-node]')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-node')));
    assert.deepEqual(nodes, ['router', 'memory', 'agent', 'tools', 'agent']);
    assert.match(await inspector.innerText(), /2 LLM calls/);
  });

  it('starts, opens and deletes sessions', async () => {
    await page.getByTestId('new-session').click();
    assert.equal(await page.getByTestId('message').count(), 0);
    await ask(page, 'my name is Mina');
    const items = page.getByTestId('session-item');
    await waitUntil(async () => (await items.count()) === 2, 'two sessions');
    await items.filter({ hasText: question }).click();
    await waitUntil(
      async () => /56,088/.test(await page.getByTestId('message').last().innerText()),
      'the first conversation',
    );
    const row = page.locator('li', { has: page.getByText('my name is Mina', { exact: true }) });
    await row.getByTestId('delete-session').click();
    await waitUntil(async () => (await items.count()) === 1, 'one session left');
    assert.equal((await items.innerText()).trim(), question);
  });

  it('runs the ops graph and shows its verdict, score and checks', async () => {
    await page.getByTestId('new-session').click();
    await page.getByLabel('Graph').selectOption('ops');
    const answer = await ask(page, question);
    const evaluation = answer.getByTestId('evaluation');
    await evaluation.waitFor();
    assert.match(await evaluation.innerText(), /pass/);
    assert.match(await evaluation.innerText(), /grounding/);
    assert.match(await answer.innerText(), /56,088/);
    await page.getByLabel('Graph').selectOption('chat');
  });

  it('draws the three graphs with Mermaid, loaded only then', async () => {
    const mermaid = page.waitForRequest((request) => request.url().includes('/vendor/mermaid/'));
    await page.getByTestId('graphs').click();
    await mermaid;
    const graphs = page.getByTestId('graph');
    await waitUntil(async () => (await graphs.count()) === 3, 'three graphs', 30_000);
    assert.equal(await graphs.locator('svg').count(), 3);
    assert.match(await graphs.first().innerText(), /router/);
    await page.getByTestId('new-session').click();
    await page.getByTestId('chat-input').waitFor();
  });

  it('logged no errors in the browser console', () => {
    assert.deepEqual(errors, []);
  });
});
