// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's innerText is the text a person sees
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { ownerOfKey } from '../src/identity/index.ts';
import {
  askConsole,
  type ConsoleServer,
  collectPageErrors,
  launchBrowser,
  seriousViolations,
  serveConsole,
  type TestBrowser,
} from '../src/testing/internal/browser.ts';
import { hs256Token, waitUntil } from '../src/testing/internal/index.ts';

// End users in the web console: a key or a token in the one field, a token handed over in the
// address (`/#token=…`) and removed from it, the signed-in owner shown, read-only credentials
// offered nothing that writes, and a refused or expired token asked for again.

const secret = 'console-end-user-secret-of-32-bytes-or-more';
const key = 'console-key-5c1e';
const now = () => Math.floor(Date.now() / 1000);

/** What the page asked of the server: each request's address and Referer, and each 401. */
function watchRequests(page: Page) {
  const seen = { addresses: [] as string[], unauthorized: [] as string[] };
  page.on('request', (request) => {
    seen.addresses.push(request.url(), request.headers().referer ?? '');
  });
  page.on('response', (response) => {
    if (response.status() === 401) seen.unauthorized.push(response.url());
  });
  return seen;
}

/** Opens the console with `token` in its address and waits until the page has settled. */
async function openWithToken(page: Page, url: string, token: string) {
  await page.goto(`${url}/#token=${token}`, { waitUntil: 'networkidle' });
}

describe('web console: end users (real browser)', () => {
  let server: ConsoleServer;
  let browser: TestBrowser;

  before(async () => {
    browser = await launchBrowser();
    // No clock skew, so that a token can expire while the page is open.
    server = await serveConsole(
      { YEOUL_JWT_SECRET: secret, YEOUL_API_KEYS: key },
      { auth: { jwt: { clockSkewSeconds: 0 } } },
    );
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('signs in with /#token= without asking, removes the token from the address, and names the owner', async () => {
    const token = await hs256Token(secret, { sub: 'alice' });
    const page = await browser.newPage();
    const errors = collectPageErrors(page);
    const seen = watchRequests(page);
    await openWithToken(page, server.url, token);
    assert.equal(await page.getByTestId('api-key-input').count(), 0, 'not asked');
    await waitUntil(async () => (await page.getByTestId('identity').count()) === 1, 'the owner');
    assert.equal(await page.getByTestId('identity').innerText(), 'jwt:alice');
    assert.match(await page.getByTestId('status').innerText(), /Signed in as jwt:alice/);
    assert.equal(page.url(), `${server.url}/`);
    assert.equal(await page.evaluate(() => location.href), `${server.url}/`);
    assert.ok(!seen.addresses.some((address) => address.includes(token)), 'no request carried it');
    assert.deepEqual(seen.unauthorized, []);
    // Kept like a typed key: for this browser session, over a reload of the clean address.
    assert.equal(await page.evaluate(() => sessionStorage.getItem('yeoul.apiKey')), token);
    await page.reload({ waitUntil: 'networkidle' });
    assert.equal(await page.getByTestId('api-key-input').count(), 0, 'not asked after a reload');
    await page.getByTestId('identity').waitFor();
    // Read and write: it sends, and nothing says the access is read-only.
    assert.equal(await page.getByTestId('read-only').count(), 0);
    const answer = await askConsole(page, '123 * 456 계산해줘');
    assert.match(await answer.innerText(), /56,088/);
    await page.getByTestId('delete-session').first().waitFor();
    assert.deepEqual(errors, []);
    // A link with another token opened in this tab: only the fragment changes.
    const bob = await hs256Token(secret, { sub: 'bob' });
    await page.evaluate((fragment) => {
      location.hash = fragment;
    }, `token=${bob}`);
    await waitUntil(
      async () =>
        (await page
          .getByTestId('identity')
          .innerText()
          .catch(() => '')) === 'jwt:bob',
      'bob signed in',
    );
    assert.equal(page.url(), `${server.url}/`);
    await page.close();
  });

  it('offers a read-only token nothing that writes, and says the access is read-only', async () => {
    // A session of rita's own, made with a token that may write, for the read-only one to see.
    const writer = await hs256Token(secret, { sub: 'rita' });
    const reader = await hs256Token(secret, { sub: 'rita', scope: 'openid yeoul:read' });
    const writing = await browser.newPage();
    await openWithToken(writing, server.url, writer);
    await askConsole(writing, '123 * 456 계산해줘');
    await writing.close();
    // Another tab (its own session storage) returns to the conversation it was in.
    const page = await browser.newPage();
    await openWithToken(page, server.url, reader);
    await page.getByTestId('identity').waitFor();
    assert.equal(await page.getByTestId('identity').innerText(), 'jwt:rita');
    const notice = page.getByTestId('read-only');
    await notice.waitFor();
    assert.match(await notice.innerText(), /Read-only access/);
    await page.getByTestId('chat-input').fill('may I write?');
    assert.equal(await page.getByTestId('send').isDisabled(), true, 'send stays disabled');
    await page.getByTestId('chat-input').press('Enter');
    await page.waitForTimeout(300);
    // The open session is rita's earlier one: its two messages, and nothing new.
    assert.equal(await page.getByTestId('message').count(), 2);
    assert.equal(await page.getByTestId('session-item').count(), 1, 'it still lists and reads');
    for (const action of ['delete-session', 'edit-message', 'regenerate', 'feedback-up']) {
      assert.equal(await page.getByTestId(action).count(), 0, `no ${action}`);
    }
    await page.getByTestId('documents').click();
    await page.getByTestId('document-search').waitFor();
    assert.equal(await page.getByTestId('document-upload').count(), 0);
    assert.equal(await page.getByTestId('document-delete').count(), 0);
    await page.getByTestId('documents-read-only').waitFor();
    await page.getByTestId('chat').click();
    assert.deepEqual(await seriousViolations(page), []);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(200);
    assert.equal(
      await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth),
      false,
      'nothing scrolls sideways at 390 px',
    );
    await page.close();
  });

  it('says the access is read-only in Korean too', async () => {
    const localized = await launchBrowser({ locale: 'ko-KR' });
    try {
      const page = await localized.newPage();
      await openWithToken(
        page,
        server.url,
        await hs256Token(secret, { sub: 'min', scope: 'yeoul:read' }),
      );
      await page.getByTestId('read-only').waitFor();
      assert.match(await page.getByTestId('read-only').innerText(), /읽기 전용 접근입니다/);
      assert.match(await page.getByTestId('status').innerText(), /로그인 사용자 jwt:min/);
      await page.getByTestId('chat-input').fill('써도 되나요?');
      assert.equal(await page.getByTestId('send').isDisabled(), true);
    } finally {
      await localized.close();
    }
  });

  it('asks again, saying it was refused, for an expired token; then a key still works', async () => {
    const expired = await hs256Token(secret, { sub: 'alice', exp: now() - 60 });
    const page = await browser.newPage();
    await openWithToken(page, server.url, expired);
    await page.getByTestId('api-key-error').waitFor();
    assert.equal(page.url(), `${server.url}/`, 'the refused token left the address too');
    assert.equal(await page.getByTestId('identity').count(), 0);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('yeoul.apiKey')), null);
    const input = page.getByTestId('api-key-input');
    assert.equal(await input.inputValue(), '', 'the refused token is not shown again');
    assert.match(await page.locator('label[for="api-key"]').innerText(), /^API key or token$/);
    await input.fill(key);
    await input.press('Enter');
    await waitUntil(async () => (await input.count()) === 0, 'the key taken');
    await waitUntil(
      async () => (await page.getByTestId('identity').count()) === 1,
      'the key’s owner',
    );
    assert.equal(await page.getByTestId('identity').innerText(), ownerOfKey(key));
    assert.equal(await page.getByTestId('read-only').count(), 0);
    await page.getByTestId('documents').click();
    await page.getByTestId('document-upload').waitFor();
    await page.close();
  });

  it('brings the prompt back when the token expires while the page is open', async () => {
    const shortLived = await hs256Token(secret, { sub: 'alice', exp: now() + 3 });
    const page = await browser.newPage();
    await openWithToken(page, server.url, shortLived);
    await page.getByTestId('identity').waitFor();
    // The status bar asks again every few seconds: the first answer after `exp` is a 401.
    await page.getByTestId('api-key-error').waitFor({ timeout: 20_000 });
    await page.getByTestId('api-key-input').waitFor();
    assert.equal(await page.getByTestId('identity').count(), 0, 'no one is signed in now');
    const fresh = await hs256Token(secret, { sub: 'alice' });
    await page.getByTestId('api-key-input').fill(fresh);
    await page.getByTestId('api-key-input').press('Enter');
    await waitUntil(
      async () => (await page.getByTestId('identity').count()) === 1,
      'signed in again',
    );
    assert.equal(await page.getByTestId('identity').innerText(), 'jwt:alice');
    await page.close();
  });
});
