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

describe('web console: memory (offline model, real browser)', () => {
  let server: ConsoleServer;
  let browser: TestBrowser;
  let page: Page;
  let errors: string[];

  before(async () => {
    server = await serveConsole({ YEOUL_SAMPLE_KNOWLEDGE: 'false' });
    browser = await launchBrowser();
    page = await browser.newPage();
    errors = collectPageErrors(page);
    await page.goto(server.url);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists what the agent remembered and deletes an item', async () => {
    await page.getByTestId('chat-input').fill('내 이름은 철수야');
    await page.getByTestId('send').click();
    await waitUntil(
      async () => (await page.getByTestId('message').count()) >= 2,
      'the answer to the introduction',
    );
    const put = await fetch(`${server.url}/api/memory/team/payments/hostile`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ value: '<img src=x onerror="window.__pwned=1">결제팀' }),
    });
    assert.equal(put.status, 200);
    await page.getByTestId('memory').click();
    const items = page.getByTestId('memory-item');
    await waitUntil(async () => (await items.count()) === 2, 'two memory items');
    const text = await page.locator('.documents-view').innerText();
    assert.match(text, /철수/);
    assert.match(text, /profile\/name/);
    assert.match(text, /<img src=x/, 'shown as text, not markup');
    assert.equal(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned), undefined);
    await items.filter({ hasText: 'profile/name' }).getByTestId('memory-delete').click();
    await waitUntil(async () => (await items.count()) === 1, 'one memory item left');
    assert.equal((await fetch(`${server.url}/api/memory/profile/name`)).status, 404);
    assert.deepEqual(errors, []);
  });
});
