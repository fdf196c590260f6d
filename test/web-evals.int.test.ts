// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's innerText is the text a person sees
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
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

async function evalRun(server: ConsoleServer, name: string, items: unknown[]): Promise<string> {
  const response = await fetch(`${server.url}/api/evals`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, items }),
  });
  assert.equal(response.status, 202);
  const { id } = (await response.json()) as { id: string };
  await waitUntil(async () => {
    const run = (await (await fetch(`${server.url}/api/evals/${id}`)).json()) as { status: string };
    return run.status !== 'running';
  }, `evaluation run ${name}`);
  return id;
}

describe('web console: feedback and the Evals view (offline model, real browser)', () => {
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

  it('rates the latest answer with 👍 / 👎; older answers cannot be rated', async () => {
    const first = await ask(page, '123 * 456 계산해줘');
    const saved = page.waitForResponse(
      (response) => response.url().endsWith('/feedback') && response.status() === 201,
    );
    await first.getByTestId('feedback-up').click();
    await saved;
    // The response can arrive before the component has re-rendered: wait for the pressed state.
    await waitUntil(
      async () => (await first.getByTestId('feedback-up').getAttribute('aria-pressed')) === 'true',
      'the 👍 shown as pressed',
    );
    const second = await ask(page, '안녕하세요');
    assert.equal(await first.getByTestId('feedback-down').isDisabled(), true);
    const again = page.waitForResponse(
      (response) => response.url().endsWith('/feedback') && response.status() === 201,
    );
    await second.getByTestId('feedback-down').click();
    await again;
    await waitUntil(
      async () =>
        (await second.getByTestId('feedback-down').getAttribute('aria-pressed')) === 'true',
      'the 👎 shown as pressed',
    );
  });

  it('lists runs, shows an opened run’s items with scores, two runs side by side, and opens an item’s session', async () => {
    const calculator = {
      id: 'calc',
      input: '123 * 456 계산해줘',
      expected: '56088',
      expectedTools: ['calculator'],
    };
    await evalRun(server, 'before-change', [calculator, { id: 'hello', input: '안녕하세요' }]);
    await evalRun(server, 'after-change', [
      { ...calculator, expected: '99999' },
      { id: 'hello', input: '안녕하세요' },
    ]);
    await page.getByTestId('evals').click();
    const runs = page.getByTestId('eval-run');
    await waitUntil(async () => (await runs.count()) === 2, 'two eval runs listed');
    assert.match(
      await runs.nth(0).innerText(),
      /after-change[\s\S]*1\/2|after-change[\s\S]*2개 중 1개/,
    );
    await runs.nth(0).click();
    const items = page.getByTestId('eval-item');
    await waitUntil(async () => (await items.count()) === 2, 'the opened run’s items');
    const calc = items.nth(0);
    assert.match(await calc.innerText(), /calc/);
    assert.equal(await calc.locator('[data-scorer="contains"] .eval-score').innerText(), '0');
    assert.equal(await calc.locator('[data-scorer="tools"] .eval-score').innerText(), '1');
    assert.match(
      await calc.locator('[data-scorer="contains"]').innerText(),
      /does not state "99999"/,
    );
    const other = await page
      .getByTestId('eval-compare')
      .locator('option')
      .nth(1)
      .getAttribute('value');
    await page.getByTestId('eval-compare').selectOption(other ?? '');
    await waitUntil(async () => (await items.count()) === 4, 'two runs side by side');
    assert.equal(await page.locator('.eval-run-panel').count(), 2);
    await calc.getByTestId('eval-item-session').click();
    const user = page.locator('[data-testid="message"][data-role="user"]');
    await waitUntil(async () => (await user.count()) === 1, 'the item’s session in the chat');
    assert.equal(await user.first().innerText(), '123 * 456 계산해줘');
    await page.getByTestId('open-inspector').first().click();
    await page.getByTestId('inspector').waitFor();
    assert.deepEqual(errors, []);
  });
});
