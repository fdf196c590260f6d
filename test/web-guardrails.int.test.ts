// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's innerText is the text a person sees
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { pii, promptInjection } from '../src/guardrails/index.ts';
import {
  askConsole as ask,
  type ConsoleServer,
  collectPageErrors,
  launchBrowser,
  seriousViolations,
  serveConsole,
  type TestBrowser,
} from '../src/testing/internal/browser.ts';
import {
  type ChatCompletionRequest,
  type FakeOpenAiServer,
  startFakeOpenAiServer,
  waitUntil,
} from '../src/testing/internal/index.ts';

const card = '4111 1111 1111 1111';

const textOf = (content: unknown) =>
  typeof content === 'string' ? content : JSON.stringify(content ?? '');

/** A scripted model: reads a card number back when asked for the one on file, else greets. */
function script(request: ChatCompletionRequest) {
  const question = textOf(
    request.body.messages.findLast((message) => message.role === 'user')?.content,
  );
  return /on file|등록된/.test(question)
    ? { kind: 'text' as const, text: `Sure. The card on file is ${card}, as you asked.` }
    : { kind: 'text' as const, text: 'Hello there.' };
}

const users = (page: Page) => page.locator('[data-testid="message"][data-role="user"]');

/** Every user message the model was sent, in order. */
const sentToModel = (fake: FakeOpenAiServer) =>
  fake.requests.flatMap((request) =>
    request.body.messages
      .filter((message) => message.role === 'user')
      .map((message) => textOf(message.content)),
  );

for (const { locale, blockedText, question, noted } of [
  {
    locale: 'en-US',
    blockedText: `My card is ${card}, please remember it`,
    question: 'What is the card on file?',
    noted: /Guardrail “pii” blocked your message: card/,
  },
  {
    locale: 'ko-KR',
    blockedText: `제 카드 번호는 ${card} 입니다. 기억해 주세요`,
    question: '등록된 카드 번호 알려줘',
    noted: /가드레일 “pii”: 메시지 차단 \(card\)/,
  },
]) {
  describe(`web console: guardrails (${locale}, scripted model, real browser)`, () => {
    let fake: FakeOpenAiServer;
    let server: ConsoleServer;
    let browser: TestBrowser;
    let page: Page;
    let errors: string[];

    before(async () => {
      browser = await launchBrowser({ locale });
      fake = await startFakeOpenAiServer(script);
      server = await serveConsole(
        {
          YEOUL_MODEL: 'compat:test',
          YEOUL_COMPAT_BASE_URL: fake.baseUrl,
          YEOUL_SAMPLE_KNOWLEDGE: 'false',
        },
        { guardrails: { input: [pii(), promptInjection()], output: [pii()] } },
      );
      page = await browser.newPage();
      errors = collectPageErrors(page);
      await page.goto(server.url);
    });
    after(async () => {
      await browser?.close();
      await server?.close();
      await fake?.close();
    });

    it('marks a message holding a card number as blocked, with the guardrail that did it', async () => {
      const answer = await ask(page, blockedText);
      assert.equal(await users(page).last().getAttribute('data-blocked'), 'true');
      const note = answer.locator('[data-testid="guardrail"]');
      assert.equal(await note.count(), 1);
      assert.equal(await note.getAttribute('data-guardrail'), 'pii');
      assert.equal(await note.getAttribute('data-stage'), 'input');
      assert.equal(await note.getAttribute('data-action'), 'block');
      assert.match(await note.innerText(), noted);
      assert.doesNotMatch(await answer.innerText(), /4111/, 'the refusal never repeats the value');
      assert.equal(fake.requests.length, 0, 'a blocked turn costs no model call');
    });

    it('lists the guardrail step in the inspector, naming the guardrail', async () => {
      const step = page.getByTestId('inspector').locator('[data-node="guardrail"]');
      await step.waitFor({ timeout: 20_000 });
      assert.match(await step.innerText(), /pii/);
    });

    it('has no critical or serious axe-core violations with a blocked turn on screen', async () => {
      assert.deepEqual(await seriousViolations(page), []);
    });

    it('replaces an answer blocked while it streamed by the refusal', async () => {
      const answer = await ask(page, question);
      assert.equal(await users(page).last().getAttribute('data-blocked'), 'true');
      const note = answer.locator('[data-testid="guardrail"]');
      assert.equal(await note.getAttribute('data-stage'), 'output');
      assert.equal(await note.getAttribute('data-action'), 'block');
      const text = await answer.innerText();
      assert.doesNotMatch(text, /4111|card on file is/);
    });

    it('answers a later message as usual, and never sends the blocked one to the model', async () => {
      const answer = await ask(page, locale === 'ko-KR' ? '안녕' : 'Hello');
      assert.match(await answer.innerText(), /Hello there\./);
      assert.equal(await users(page).last().getAttribute('data-blocked'), null);
      assert.equal(await answer.locator('[data-testid="guardrail"]').count(), 0);
      assert.ok(
        sentToModel(fake).every((text) => !text.includes('4111') && !text.includes('기억해')),
        'the blocked message stays out of every request',
      );
    });

    it('keeps the message blocked on input marked after a reload, without the card number', async () => {
      await page.reload();
      await waitUntil(async () => (await users(page).count()) === 3, 'the stored messages');
      const marks = await users(page).evaluateAll((elements) =>
        elements.map((element) => element.getAttribute('data-blocked')),
      );
      assert.equal(marks[0], 'true', 'the message blocked on input');
      assert.equal(marks[2], null, 'the message answered as usual');
      assert.doesNotMatch(await users(page).first().innerText(), /4111/);
      await page.locator('[data-role="assistant"]').first().getByTestId('open-inspector').click();
      const step = page.getByTestId('inspector').locator('[data-node="guardrail"]');
      await step.waitFor({ timeout: 20_000 });
      assert.match(await step.innerText(), /pii/);
      assert.deepEqual(await seriousViolations(page), []);
    });

    it('logged no errors in the browser console', () => {
      assert.deepEqual(errors, []);
    });
  });
}
