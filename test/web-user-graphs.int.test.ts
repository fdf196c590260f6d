// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's innerText is the text a person sees
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { defineConfig } from '../src/config/index.ts';
import { defineState, END, messages, START, StateGraph } from '../src/graph/index.ts';
import {
  type ConsoleServer,
  collectPageErrors,
  launchBrowser,
  serveConsole,
  type TestBrowser,
} from '../src/testing/internal/browser.ts';
import { waitUntil } from '../src/testing/internal/index.ts';

/** A chat graph of a config file: it answers every message in capitals. */
const config = defineConfig({
  graphs: {
    shout: new StateGraph(
      defineState({ messages: messages<{ id?: string; role: string; content: string }>() }),
    )
      .addNode('answer', (state) => ({
        messages: {
          role: 'assistant',
          content: `${String(state.messages.at(-1)?.content ?? '').toUpperCase()}!`,
        },
      }))
      .addEdge(START, 'answer')
      .addEdge('answer', END),
  },
});

describe('web console: a chat graph of the config file (real browser)', () => {
  let server: ConsoleServer;
  let browser: TestBrowser;
  let page: Page;
  let errors: string[];

  before(async () => {
    browser = await launchBrowser();
    server = await serveConsole({}, config);
    page = await browser.newPage();
    errors = collectPageErrors(page);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('offers the user graph in the picker, answers through it and draws it', async () => {
    await page.goto(server.url);
    const picker = page.getByTestId('graph-select');
    await waitUntil(
      async () => (await picker.locator('option').allInnerTexts()).includes('shout'),
      'the user graph in the picker',
    );
    assert.deepEqual(await picker.locator('option').allInnerTexts(), [
      'chat',
      'react',
      'ops',
      'shout',
    ]);
    await picker.selectOption('shout');
    await page.getByTestId('chat-input').fill('hello there');
    await page.getByTestId('chat-input').press('Enter');
    const answer = page.locator('[data-testid="message"][data-role="assistant"]').first();
    await waitUntil(async () => (await answer.getAttribute('aria-busy')) === 'false', 'the answer');
    assert.match(await answer.innerText(), /HELLO THERE!/);
    const inspector = page.getByTestId('inspector');
    await waitUntil(async () => (await inspector.count()) > 0, 'the inspector');
    await waitUntil(
      async () => (await inspector.locator('[data-node="answer"]').count()) > 0,
      'the graph’s node in the inspector',
    );
    await page.getByTestId('graphs').click();
    await waitUntil(
      async () => (await page.getByTestId('graph').count()) >= 4,
      'four graphs drawn',
    );
    assert.deepEqual(errors, []);
  });
});
