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
import {
  type ChatCompletionRequest,
  type FakeCompletion,
  type FakeOpenAiServer,
  startFakeOpenAiServer,
  waitUntil,
} from '../src/testing/internal/index.ts';

const textOf = (content: unknown) =>
  typeof content === 'string' ? content : JSON.stringify(content ?? '');

/**
 * A scripted model: asks to write a file (a call that needs approval), then reports the
 * tool's result; "hang" never answers; "fail" is refused as unauthorised.
 */
function script(request: ChatCompletionRequest, index: number): FakeCompletion {
  const messages = request.body.messages;
  const last = messages.at(-1);
  const question = textOf(
    [...messages].reverse().find((message) => message.role === 'user')?.content,
  );
  if (last?.role === 'tool') return { kind: 'text', text: `Finished: ${textOf(last.content)}` };
  if (/hang/.test(question)) return { kind: 'hang' };
  if (/fail/.test(question)) return { kind: 'error', status: 401 };
  if (/slow/.test(question)) return { kind: 'text', text: 'The slow answer arrived.' };
  return {
    kind: 'tool-calls',
    calls: [
      {
        id: `call_${index}`,
        name: 'write_file',
        arguments: JSON.stringify({ path: 'notes.txt', content: 'hello from the console' }),
      },
    ],
  };
}

const modelEnv = (fake: FakeOpenAiServer) => ({
  YEOUL_MODEL: 'compat:test',
  YEOUL_COMPAT_BASE_URL: fake.baseUrl,
  YEOUL_SAMPLE_KNOWLEDGE: 'false',
  YEOUL_TOOL_PERMISSIONS: 'write_file:ask',
});

const lastAnswer = (page: Page) =>
  page.locator('[data-testid="message"][data-role="assistant"]').last();

async function ask(page: Page, text: string) {
  await page.getByTestId('new-session').click();
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-input').press('Enter');
}

const settled = (page: Page, what: string) =>
  waitUntil(
    async () => (await lastAnswer(page).getAttribute('aria-busy')) === 'false',
    what,
    20_000,
  );

describe('web console: approvals, stop, errors (scripted model, real browser)', () => {
  let fake: FakeOpenAiServer;
  let server: ConsoleServer;
  let browser: TestBrowser;
  let page: Page;
  let errors: string[];

  before(async () => {
    browser = await launchBrowser();
    fake = await startFakeOpenAiServer(script);
    server = await serveConsole(modelEnv(fake));
    page = await browser.newPage();
    errors = collectPageErrors(page);
    await page.goto(server.url);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
  });

  it('shows a pending call with its tool and arguments, and continues in place when approved', async () => {
    await ask(page, 'Save a note for me');
    const pending = page.getByTestId('interrupt');
    await pending.waitFor({ timeout: 20_000 });
    assert.match(await pending.innerText(), /write_file/);
    assert.match(await pending.innerText(), /notes\.txt/);
    await pending.getByTestId('approve').click();
    await waitUntil(
      async () => /Finished:/.test(await lastAnswer(page).innerText()),
      'the answer after approval',
      20_000,
    );
    assert.equal(await page.getByTestId('interrupt').count(), 0);
    assert.equal(await page.locator('[data-role="assistant"]').count(), 1, 'the same turn goes on');
    assert.match(await lastAnswer(page).getByTestId('tool-card').innerText(), /write_file/);
  });

  it('denies a pending call with a reason the model is told', async () => {
    await ask(page, 'Save another note');
    const pending = page.getByTestId('interrupt');
    await pending.waitFor({ timeout: 20_000 });
    await pending.getByRole('textbox').fill('not today');
    await pending.getByTestId('deny').click();
    await waitUntil(
      async () => /Finished:[\s\S]*not today/.test(await lastAnswer(page).innerText()),
      'the answer after the denial',
      20_000,
    );
    assert.equal(await page.getByTestId('interrupt').count(), 0);
  });

  it('finds a pending call again after a reload, and approves it there', async () => {
    await ask(page, 'Save a third note');
    await page.getByTestId('interrupt').waitFor({ timeout: 20_000 });
    await page.reload();
    const pending = page.getByTestId('interrupt');
    await pending.waitFor({ timeout: 20_000 });
    await pending.getByTestId('approve').click();
    await waitUntil(
      async () => /Finished:/.test(await lastAnswer(page).innerText()),
      'the answer after approving a reloaded call',
      20_000,
    );
  });

  it('stops a run with the Stop button', async () => {
    await ask(page, 'hang forever');
    const stop = page.getByTestId('stop');
    await stop.waitFor();
    assert.equal(await page.getByTestId('send').count(), 0, 'send is hidden during a run');
    await stop.click();
    await settled(page, 'the stopped run');
    await page.getByTestId('send').waitFor();
    assert.equal(await page.getByTestId('stop').count(), 0);
  });

  it('shows a model failure in words with its code', async () => {
    await ask(page, 'please fail');
    await settled(page, 'the failed run');
    const error = lastAnswer(page).getByTestId('error');
    await error.first().waitFor();
    assert.match(await error.first().innerText(), /model_auth_failed/);
    assert.match(await error.first().innerText(), /API key/);
  });

  it('logged no errors in the browser console', () => {
    assert.deepEqual(errors, []);
  });
});

describe('web console: rejoining a run after a reload (slow scripted model)', () => {
  it('reloads mid-run and still gets the answer, without asking again', async () => {
    // The browser first: when it cannot start, no server is left running to hold the file open.
    const browser = await launchBrowser();
    const fake = await startFakeOpenAiServer(script, { delayMs: 2500 });
    const server = await serveConsole(modelEnv(fake));
    try {
      const page = await browser.newPage();
      await page.goto(server.url);
      await ask(page, 'a slow question');
      await page.getByTestId('stop').waitFor();
      await page.waitForTimeout(500);
      await page.reload();
      await waitUntil(
        async () =>
          /The slow answer arrived/.test(
            await lastAnswer(page)
              .innerText()
              .catch(() => ''),
          ),
        'the rejoined answer',
        20_000,
      );
      assert.equal(fake.requests.length, 1, 'the run was not started twice');
      assert.equal(await page.locator('[data-role="user"]').count(), 1);
    } finally {
      await browser.close();
      await server.close();
      await fake.close();
    }
  });
});
