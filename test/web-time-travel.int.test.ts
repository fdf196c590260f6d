// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's innerText is the text a person sees
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { YeoulClient } from '../src/client/index.ts';
import { defineConfig } from '../src/config/index.ts';
import {
  append,
  defineState,
  END,
  messages,
  replace,
  START,
  StateGraph,
} from '../src/graph/index.ts';
import {
  askConsole,
  type ConsoleServer,
  collectPageErrors,
  launchBrowser,
  serveConsole,
  type TestBrowser,
} from '../src/testing/internal/browser.ts';
import { waitUntil } from '../src/testing/internal/index.ts';

/** What `left` waits for (released by the test that watches it run). */
const leftGate = Promise.withResolvers<void>();

/** A chat graph that fans out: `plan` starts `left` and `right` together; `answer` joins them. */
const config = defineConfig({
  graphs: {
    fanout: new StateGraph(
      defineState({
        messages: messages<{ id?: string; role: string; content: string }>(),
        visited: append<string>(),
        plan: replace<string>(''),
      }),
    )
      .addNode('plan', (state) => ({ plan: String(state.messages.at(-1)?.content ?? '') }))
      .addNode('left', async () => {
        // Held until the test has seen both tasks running side by side while the turn streams.
        await leftGate.promise;
        return { visited: 'left' };
      })
      .addNode('right', () => ({ visited: 'right' }))
      .addNode('answer', (state) => ({
        messages: { role: 'assistant', content: `${state.plan}: ${state.visited.join(' + ')}` },
      }))
      .addEdge(START, 'plan')
      .addEdge('plan', 'left')
      .addEdge('plan', 'right')
      .addEdge(['left', 'right'], 'answer')
      .addEdge('answer', END),
  },
});

const user = '[data-testid="message"][data-role="user"]';
const assistant = '[data-testid="message"][data-role="assistant"]';

describe('web console: time travel and parallel tasks (real browser)', () => {
  let server: ConsoleServer;
  let browser: TestBrowser;
  let page: Page;
  let errors: string[];
  let client: YeoulClient;

  before(async () => {
    browser = await launchBrowser();
    // No long-term memory: each conversation knows only what it holds.
    server = await serveConsole({ YEOUL_LONG_TERM_MEMORY: 'off' }, config);
    client = new YeoulClient({ baseUrl: server.url });
    page = await browser.newPage();
    errors = collectPageErrors(page);
    await page.goto(server.url);
  });
  after(async () => {
    // A test that failed while `left` waited must not leave its run holding the server.
    leftGate.resolve();
    await browser?.close();
    await server?.close();
  });

  const texts = async (selector: string) => page.locator(selector).allInnerTexts();
  const currentSession = () =>
    page.evaluate(() => localStorage.getItem('yeoul.session') ?? '') as Promise<string>;
  /** Waits until the view shows session `id` with `count` answered messages. */
  const waitForAnswers = (count: number, what: string) =>
    waitUntil(async () => {
      const answers = page.locator(assistant);
      if ((await answers.count()) !== count) return false;
      return (await answers.last().getAttribute('aria-busy')) === 'false';
    }, what);

  let original = '';
  let editedFork = '';

  it('edits a user message: the edited text is answered on a fork, the original untouched', async () => {
    await askConsole(page, 'my name is Alice');
    const second = await askConsole(page, 'what is my name?');
    assert.match(await second.innerText(), /Alice/);
    original = await currentSession();
    const historyBefore = await client.sessions.history(original);

    // Escape leaves the message as it was.
    await page.getByTestId('edit-message').first().click();
    await page.getByTestId('edit-input').press('Escape');
    await waitUntil(
      async () => (await page.getByTestId('edit-input').count()) === 0,
      'the editor to close',
    );
    await waitUntil(
      async () =>
        (await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))) ===
        'edit-message',
      'the focus back on the edit button',
    );
    assert.deepEqual(await texts(user), ['my name is Alice', 'what is my name?']);

    await page.getByTestId('edit-message').first().click();
    // The editor puts the caret at the end when it opens: fill once it has.
    await waitUntil(
      async () =>
        (await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))) ===
        'edit-input',
      'the editor focused',
    );
    await page.getByTestId('edit-input').fill('my name is Bob');
    await page.getByTestId('edit-input').press('Enter');
    await waitUntil(async () => (await currentSession()) !== original, 'the view on the fork');
    editedFork = await currentSession();
    await waitForAnswers(1, 'the edited message answered');
    assert.deepEqual(await texts(user), ['my name is Bob']);
    assert.match(await page.locator(assistant).last().innerText(), /Bob/);

    const fork = await client.sessions.get(editedFork);
    assert.deepEqual(fork.forkedFrom, { sessionId: original, step: -1 });
    assert.deepEqual(
      fork.messages.map((message) => [message.role, message.content.includes('Bob')]),
      [
        ['user', true],
        ['assistant', true],
      ],
    );
    assert.deepEqual(await client.sessions.history(original), historyBefore);
  });

  it('links a fork to its original and the original to its forks', async () => {
    const link = page.getByTestId('forked-from');
    await waitUntil(async () => (await link.count()) === 1, 'the forked-from link');
    assert.match(await link.innerText(), /“my name is Alice” before its first message/);
    await link.click();
    await waitUntil(async () => (await currentSession()) === original, 'the original opened');
    await waitForAnswers(2, 'the original conversation');
    assert.deepEqual(await texts(user), ['my name is Alice', 'what is my name?']);
    const forks = page.getByTestId('session-forks');
    await waitUntil(async () => (await forks.count()) === 1, 'the original’s forks');
    const forkLink = forks.getByTestId('fork-link');
    assert.equal(await forkLink.count(), 1);
    assert.equal(await forkLink.getAttribute('data-session'), editedFork);
    assert.match(await forkLink.innerText(), /my name is Bob \(from the start\)/);
    assert.equal(await page.getByTestId('fork-badge').count(), 1);
    await forkLink.click();
    await waitUntil(async () => (await currentSession()) === editedFork, 'the fork opened');
    await waitForAnswers(1, 'the fork conversation');
    assert.deepEqual(await texts(user), ['my name is Bob']);
  });

  it('regenerates the last answer on a fork that asks the same question again', async () => {
    await page.getByTestId('forked-from').click();
    await waitForAnswers(2, 'the original conversation');
    assert.equal(await page.getByTestId('regenerate').count(), 1, 'only the last answer');
    const historyBefore = await client.sessions.history(original);
    const secondInput = historyBefore.steps.find(
      (step) =>
        step.kind === 'input' &&
        JSON.stringify(step.update).includes('what is my name?') &&
        step.runId !== historyBefore.steps[0]?.runId,
    );
    assert.ok(secondInput, 'the second question’s input in the history');

    await page.getByTestId('regenerate').click();
    await waitUntil(
      async () => ![original, editedFork].includes(await currentSession()),
      'the view on a new fork',
    );
    const regenerated = await currentSession();
    await waitForAnswers(2, 'the question answered again');
    assert.deepEqual(await texts(user), ['my name is Alice', 'what is my name?']);
    assert.match(await page.locator(assistant).last().innerText(), /Alice/);
    const fork = await client.sessions.get(regenerated);
    assert.deepEqual(fork.forkedFrom, { sessionId: original, step: secondInput.step - 1 });
    assert.equal(fork.messages.filter((message) => message.role === 'user').length, 2);
    assert.deepEqual(await client.sessions.history(original), historyBefore);
    await waitUntil(
      async () => (await page.getByTestId('fork-badge').count()) === 2,
      'both forks marked in the list',
    );
  });

  it('shows a fork that fails, keeping the conversation on screen', async () => {
    const shown = await texts(user);
    const session = await currentSession();
    await client.sessions.delete(session);
    await page.getByTestId('regenerate').click();
    const error = page.getByTestId('error');
    await waitUntil(async () => (await error.count()) > 0, 'the fork’s error');
    assert.match(await error.last().innerText(), /not_found/);
    assert.match(await error.last().innerText(), /Could not fork/);
    assert.deepEqual(await texts(user), shown);
    assert.equal(await currentSession(), session);
    // The browser logs the refused requests themselves; nothing else went wrong.
    assert.ok(
      errors.every((error) => /status of 404/.test(error)),
      errors.join('\n'),
    );
    errors.length = 0;
  });

  it('shows the parallel tasks of a super-step side by side in the inspector', async () => {
    await page.getByTestId('new-session').click();
    await page.getByTestId('graph-select').selectOption('fanout');
    await page.getByTestId('chat-input').fill('split');
    await page.getByTestId('chat-input').press('Enter');
    const inspector = page.getByTestId('inspector');
    const row = inspector.getByTestId('superstep');
    const answer = page.locator(assistant).last();
    // While it runs: the live steps, `left` and `right` on one line.
    await waitUntil(async () => (await row.count()) === 1, 'the live parallel super-step');
    assert.equal(await answer.getAttribute('aria-busy'), 'true');
    await waitUntil(
      async () => (await row.getByTestId('superstep-task').count()) === 2,
      'both tasks of the super-step',
    );
    assert.deepEqual(
      await row
        .getByTestId('superstep-task')
        .evaluateAll((tasks) => tasks.map((task) => task.getAttribute('data-node'))),
      ['left', 'right'],
    );
    leftGate.resolve();
    await waitUntil(async () => (await answer.getAttribute('aria-busy')) === 'false', 'the answer');
    assert.match(await answer.innerText(), /split: left \+ right/);
    // Once stored: the same line, read from the history.
    await waitUntil(
      async () => (await inspector.locator('.step-update').count()) > 0,
      'the stored steps',
    );
    await waitUntil(async () => (await row.count()) === 1, 'the parallel super-step');
    assert.deepEqual(
      (
        await row
          .getByTestId('superstep-task')
          .evaluateAll((tasks) => tasks.map((task) => task.getAttribute('data-node')))
      ).sort(),
      ['left', 'right'],
    );
    // Side by side: the two columns share a line.
    const boxes = await row
      .getByTestId('superstep-task')
      .evaluateAll((tasks) => tasks.map((task) => task.getBoundingClientRect().top));
    assert.equal(boxes[0], boxes[1]);
    const nodes = await inspector
      .locator('[data-node]')
      .evaluateAll((found) => found.map((node) => node.getAttribute('data-node')));
    assert.deepEqual(nodes.slice(0, 1), ['plan']);
    assert.equal(nodes.at(-1), 'answer');
    assert.deepEqual(errors, []);
  });

  it('runs an edit on the graph of its session, whatever the picker says now', async () => {
    const fanned = await currentSession();
    await page.getByTestId('graph-select').selectOption('chat');
    await page.getByTestId('new-session').click();
    await page
      .getByTestId('session-item')
      .filter({ hasText: /^split$/ })
      .click();
    await waitUntil(async () => (await currentSession()) === fanned, 'the fan-out session');
    await waitForAnswers(1, 'its answer');
    await page.getByTestId('edit-message').click();
    await page.getByTestId('edit-input').fill('merge');
    await page.getByTestId('edit-save').click();
    await waitUntil(async () => (await currentSession()) !== fanned, 'the view on the fork');
    await waitForAnswers(1, 'the edit answered');
    assert.match(await page.locator(assistant).last().innerText(), /merge: left \+ right/);
    assert.deepEqual(errors, []);
  });

  it('speaks Korean about forks and a fork that fails', async () => {
    const korean = await launchBrowser({ locale: 'ko-KR' });
    try {
      const asked = await client.invoke({ message: '안녕하세요 여울' });
      const { steps } = await client.sessions.history(asked.sessionId);
      const last = steps.at(-1)?.step ?? 0;
      const fork = await client.sessions.fork(asked.sessionId, { atStep: last });
      const koreanPage = await korean.newPage();
      await koreanPage.goto(server.url);
      const row = koreanPage
        .locator('.session-row', { has: koreanPage.getByTestId('fork-badge') })
        .filter({ hasText: '안녕하세요 여울' });
      await waitUntil(async () => (await row.count()) === 1, 'the fork in the list');
      assert.match(await row.getByTestId('fork-badge').innerText(), /포크/);
      await row.getByTestId('session-item').click();
      const link = koreanPage.getByTestId('forked-from');
      await waitUntil(async () => (await link.count()) === 1, 'the forked-from link');
      assert.match(await link.innerText(), new RegExp(`${last}단계에서 포크됨`));
      await client.sessions.delete(fork.sessionId);
      await koreanPage.getByTestId('regenerate').click();
      const error = koreanPage.getByTestId('error');
      await waitUntil(async () => (await error.count()) > 0, 'the fork’s error');
      assert.match(await error.innerText(), /대화를 포크하지 못했습니다/);
    } finally {
      await korean.close();
    }
  });
});
