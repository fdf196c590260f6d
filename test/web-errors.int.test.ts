// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's innerText is the text a person sees
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  type ConsoleServer,
  launchBrowser,
  serveConsole,
  type TestBrowser,
} from '../src/testing/internal/browser.ts';
import { waitUntil } from '../src/testing/internal/index.ts';

// Errors are the user's, not the page's: an over-long message is refused in the composer in
// the interface's language, naming the limit; what the server refuses is shown with its code,
// never echoing more than 200 characters of what was sent, with no action that cannot work;
// a refused key is said to be refused; the feedback icons need no emoji font.

const overLong = 'x'.repeat(100_000);

/** The longest run of the over-long message the page shows anywhere. */
async function longestEcho(page: Page): Promise<number> {
  const text = await page.locator('body').innerText();
  return Math.max(0, ...(text.match(/x+/g) ?? []).map((run) => run.length));
}

describe('web console: error paths (real browser)', () => {
  let server: ConsoleServer;
  let browser: TestBrowser;

  before(async () => {
    browser = await launchBrowser();
    server = await serveConsole({ YEOUL_MAX_INPUT_TOKENS: '4000' });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const [locale, words] of [
    ['en-US', /at most 4,000 tokens per message \(YEOUL_MAX_INPUT_TOKENS\)/],
    ['ko-KR', /토큰 4,000개까지 받습니다\(YEOUL_MAX_INPUT_TOKENS\)/],
  ] as const) {
    it(`refuses an over-long message in the composer (${locale}), keeping it in the box`, async () => {
      const localized = await launchBrowser({ locale });
      const page = await localized.newPage();
      await page.goto(server.url, { waitUntil: 'networkidle' });
      await page.getByTestId('chat-input').fill(overLong);
      await page.getByTestId('send').click();
      const error = page.getByTestId('error');
      await error.waitFor();
      assert.match(await error.innerText(), words);
      assert.match(await error.innerText(), /input_too_long/);
      assert.equal(await page.getByTestId('message').count(), 0, 'nothing was sent');
      assert.equal((await page.getByTestId('chat-input').inputValue()).length, overLong.length);
      assert.ok((await longestEcho(page)) <= 200);
      await localized.close();
    });
  }

  it('shows a refused turn shortened, with its code and no action that cannot work', async () => {
    const page = await browser.newPage();
    await page.goto(server.url, { waitUntil: 'networkidle' });
    // Under what the composer can tell is too long, over what the server takes.
    const long = `${'말 '.repeat(4500)}끝`;
    await page.getByTestId('chat-input').fill(long);
    await page.getByTestId('send').click();
    const error = page.getByTestId('error');
    await error.waitFor();
    assert.match(await error.innerText(), /input_too_long/);
    assert.match(await error.innerText(), /The message is too long/);
    const user = page.locator('[data-testid="message"][data-role="user"]');
    assert.ok((await user.innerText()).length <= 201, 'the refused message is shown shortened');
    for (const action of ['regenerate', 'open-inspector', 'feedback-up', 'edit-message']) {
      assert.equal(await page.getByTestId(action).count(), 0, `no ${action} on a refused turn`);
    }
    assert.equal(await page.getByTestId('inspector').count(), 0);
    await page.close();
  });

  it('draws the feedback buttons without an emoji font', async () => {
    const page = await browser.newPage();
    await page.goto(server.url, { waitUntil: 'networkidle' });
    await page.getByTestId('chat-input').fill('123 * 456 계산해줘');
    await page.getByTestId('send').click();
    const up = page.getByTestId('feedback-up');
    await up.waitFor();
    assert.equal(await up.locator('svg').count(), 1);
    assert.doesNotMatch(await up.innerText(), /\p{Extended_Pictographic}/u);
    const box = await up.locator('svg').boundingBox();
    assert.ok(box && box.width >= 12 && box.height >= 12, 'the icon has a size');
    await page.close();
  });
});

describe('web console: a refused key (real browser)', () => {
  let server: ConsoleServer;
  let browser: TestBrowser;

  before(async () => {
    browser = await launchBrowser();
    server = await serveConsole({ YEOUL_API_KEYS: 'right-key' });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('says a wrong key was refused, then takes the right one', async () => {
    const page = await browser.newPage();
    await page.goto(server.url, { waitUntil: 'networkidle' });
    const input = page.getByTestId('api-key-input');
    await input.waitFor();
    assert.equal(await page.getByTestId('api-key-error').count(), 0, 'no key given yet');
    await input.fill('wrong-key');
    await input.press('Enter');
    await page.getByTestId('api-key-error').waitFor();
    await page.getByTestId('api-key-input').fill('right-key');
    await page.getByTestId('api-key-input').press('Enter');
    await waitUntil(
      async () => (await page.getByTestId('api-key-input').count()) === 0,
      'the right key is taken',
    );
    await page.close();
  });
});
