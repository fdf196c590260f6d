// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's innerText is the text a person sees
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import {
  type ConsoleServer,
  collectPageErrors,
  launchBrowser,
  seriousViolations,
  serveConsole,
  type TestBrowser,
} from '../src/testing/internal/browser.ts';
import { startFakeOpenAiServer, waitUntil } from '../src/testing/internal/index.ts';

/** YEOUL_SCREENSHOTS=docs/screenshots saves the views there (for the README). */
const screenshotDir = process.env.YEOUL_SCREENSHOTS ? resolve(process.env.YEOUL_SCREENSHOTS) : '';

async function screenshot(target: Page | Locator, name: string) {
  if (!screenshotDir) return;
  mkdirSync(screenshotDir, { recursive: true });
  await target.screenshot({ path: join(screenshotDir, `${name}.png`) });
}

/** Nothing on the page scrolls sideways. */
async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

async function ask(page: Page, text: string) {
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-input').press('Enter');
  const answer = page.locator('[data-testid="message"][data-role="assistant"]').last();
  await waitUntil(async () => (await answer.getAttribute('aria-busy')) === 'false', 'the answer');
}

describe('web console: accessibility, phone width, languages (real browser)', () => {
  let server: ConsoleServer;
  let browser: TestBrowser;
  let page: Page;
  let errors: string[];

  before(async () => {
    browser = await launchBrowser();
    server = await serveConsole();
    page = await browser.newPage();
    errors = collectPageErrors(page);
    await page.goto(server.url);
    await ask(page, '123 * 456 계산해줘');
    await ask(page, '회사 휴가 정책이 뭐야?');
    await page.getByTestId('sources').locator('summary').first().click();
    await page.locator('.sources .passage').first().waitFor();
    await page.getByTestId('inspector').waitFor();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('has no critical or serious axe-core violations in the chat, light and dark', async () => {
    const update = page.locator('.step-update summary');
    if ((await update.count()) > 0) await update.nth(2).click();
    await screenshot(page, 'chat');
    await screenshot(page.getByTestId('inspector'), 'inspector');
    assert.deepEqual(await seriousViolations(page), []);
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.deepEqual(await seriousViolations(page), []);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('has none in the documents and graphs views either', async () => {
    await page.getByTestId('documents').click();
    await page.getByTestId('document-search').fill('휴가');
    await page.getByTestId('document-search').press('Enter');
    await page.locator('.hit').first().waitFor();
    await screenshot(page, 'documents');
    assert.deepEqual(await seriousViolations(page), []);
    await page.getByTestId('graphs').click();
    await waitUntil(
      async () => (await page.getByTestId('graph').count()) === 3,
      'the graphs',
      30_000,
    );
    await screenshot(page, 'graphs');
    assert.deepEqual(await seriousViolations(page), []);
  });

  it('fits a 390 px wide phone: nothing scrolls sideways', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const view of ['graphs', 'documents'] as const) {
      await page.getByTestId(view).click();
      await page.waitForTimeout(300);
      assert.equal(await scrollsSideways(page), false, view);
    }
    await page.getByTestId('session-item').first().click();
    await page.getByTestId('tool-card').first().waitFor();
    await page.getByTestId('open-inspector').first().click();
    await page.getByTestId('inspector').waitFor();
    assert.equal(await scrollsSideways(page), false, 'chat');
    await screenshot(page, 'phone');
    assert.deepEqual(await seriousViolations(page), []);
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('reaches the message box, Send and the views by keyboard', async () => {
    await page.getByTestId('new-session').focus();
    const reached = new Set<string>();
    for (let press = 0; press < 40; press += 1) {
      await page.keyboard.press('Tab');
      const id = await page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
      if (id) reached.add(id);
    }
    for (const id of ['chat-input', 'documents', 'graphs']) assert.ok(reached.has(id), id);
  });

  it('has none with a fork’s links and a message being edited, and fits a phone so', async () => {
    await page.getByTestId('chat').click();
    await page.getByTestId('regenerate').click();
    await page.getByTestId('forked-from').waitFor();
    const answer = page.locator('[data-testid="message"][data-role="assistant"]').last();
    await waitUntil(async () => (await answer.getAttribute('aria-busy')) === 'false', 'the answer');
    await page.getByTestId('edit-message').first().click();
    assert.deepEqual(await seriousViolations(page), []);
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await scrollsSideways(page), false);
    await page.getByTestId('edit-input').press('Escape');
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('logged no errors in the browser console', () => {
    assert.deepEqual(errors, []);
  });
});

describe('web console: Korean interface (real browser)', () => {
  it('speaks Korean when the browser does', async () => {
    // The browser first: when it cannot start, no server is left running to hold the file open.
    const browser = await launchBrowser({ locale: 'ko-KR' });
    const server = await serveConsole();
    try {
      const page = await browser.newPage();
      await page.goto(server.url);
      await page.getByTestId('chat-input').waitFor();
      assert.equal(await page.getAttribute('html', 'lang'), 'ko');
      assert.match(await page.getByTestId('new-session').innerText(), /새 대화/);
      assert.match(await page.getByTestId('documents').innerText(), /문서/);
      await waitUntil(
        async () => /오프라인/.test(await page.getByTestId('status').innerText()),
        'the notice',
      );
      assert.deepEqual(await seriousViolations(page), []);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});

describe('web console: an approval on screen (scripted model, real browser)', () => {
  it('shows the pending call accessibly', async () => {
    const browser = await launchBrowser();
    const fake = await startFakeOpenAiServer((request, index) =>
      request.body.messages.at(-1)?.role === 'tool'
        ? { kind: 'text', text: 'Saved.' }
        : {
            kind: 'tool-calls',
            calls: [
              {
                id: `call_${index}`,
                name: 'write_file',
                arguments: JSON.stringify({
                  path: 'notes/today.md',
                  content: '# Today\n- ship it',
                }),
              },
            ],
          },
    );
    const server = await serveConsole({
      YEOUL_MODEL: 'compat:test',
      YEOUL_COMPAT_BASE_URL: fake.baseUrl,
      YEOUL_SAMPLE_KNOWLEDGE: 'false',
      YEOUL_TOOL_PERMISSIONS: 'write_file:ask',
    });
    try {
      const page = await browser.newPage();
      await page.goto(server.url);
      await page.getByTestId('chat-input').fill('Write today’s notes to notes/today.md');
      await page.getByTestId('chat-input').press('Enter');
      await page.getByTestId('interrupt').waitFor({ timeout: 20_000 });
      await screenshot(page, 'approval');
      assert.deepEqual(await seriousViolations(page), []);
    } finally {
      await browser.close();
      await server.close();
      await fake.close();
    }
  });
});

describe('web console: API keys (real browser)', () => {
  it('asks for a key, asks again after a 401, and keeps it for the browser session', async () => {
    const browser = await launchBrowser();
    const server = await serveConsole({ YEOUL_API_KEYS: 'right-key' });
    try {
      const page = await browser.newPage();
      await page.goto(server.url);
      const input = page.getByTestId('api-key-input');
      await input.waitFor();
      assert.deepEqual(await seriousViolations(page), []);
      await input.fill('wrong-key');
      await input.press('Enter');
      await input.waitFor();
      await waitUntil(async () => (await input.inputValue()) === '', 'the prompt back, empty');
      await input.fill('right-key');
      await input.press('Enter');
      await waitUntil(
        async () => /offline/.test(await page.getByTestId('status').innerText()),
        'the status',
      );
      assert.equal(await input.count(), 0);
      assert.equal(await page.evaluate(() => sessionStorage.getItem('yeoul.apiKey')), 'right-key');
      await page.reload();
      await waitUntil(
        async () => /offline/.test(await page.getByTestId('status').innerText()),
        'the status',
      );
      assert.equal(await input.count(), 0, 'no prompt after a reload');
      await ask(page, '123 * 456 계산해줘');
      assert.match(await page.getByTestId('message').last().innerText(), /56,088/);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
