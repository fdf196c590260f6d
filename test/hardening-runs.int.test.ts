import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type ChatCompletionRequest,
  type FakeCompletion,
  type FakeOpenAiServer,
  readEvents,
  runYeoul,
  type ServeProcess,
  startFakeOpenAiServer,
  startServeProcess,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-hardening-'));
after(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;
const freshFolder = () => {
  folders += 1;
  return mkdtempSync(join(root, `data-${folders}-`));
};

/**
 * A model that asks python_repl to sleep when told "sleep N", answers "done: …" after a
 * tool result, and "answer: …" otherwise — over OpenAI's real wire format.
 */
function scriptedModel(request: ChatCompletionRequest, index: number): FakeCompletion {
  const messages = request.body.messages;
  const last = messages.at(-1);
  if (last?.role === 'tool') {
    return { kind: 'text', text: `done: ${String(last.content).slice(0, 60)}` };
  }
  const text = String(last?.content ?? '');
  const sleep = /sleep (\d+)/.exec(text);
  if (sleep) {
    return {
      kind: 'tool-calls',
      calls: [
        {
          id: `call-sleep-${index}`,
          name: 'python_repl',
          arguments: JSON.stringify({
            code: `import time\ntime.sleep(${sleep[1]})\nprint("slept")`,
          }),
        },
      ],
    };
  }
  return { kind: 'text', text: `answer: ${text}` };
}

async function post(url: string, path: string, body: unknown) {
  const response = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

/** Starts a streamed run that calls a sleeping tool, and SIGKILLs the server once the tool runs. */
async function crashMidTool(server: ServeProcess, sessionId: string, seconds: number) {
  const response = await fetch(`${server.url}/api/agent/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: `please sleep ${seconds}`, sessionId }),
  });
  const events = await readEvents(response, (event) => event.event === 'tool-call');
  assert.equal(events.at(-1)?.event, 'tool-call');
  await new Promise((resolve) => setTimeout(resolve, 300));
  await server.kill();
}

describe('a process killed during a tool call', () => {
  let model: FakeOpenAiServer;
  let env: Record<string, string>;
  before(async () => {
    model = await startFakeOpenAiServer(scriptedModel);
    env = { YEOUL_MODEL: 'compat:scripted', YEOUL_COMPAT_BASE_URL: model.baseUrl };
  });
  after(() => model.close());

  it('leaves no tool call without its result: the next two turns answer normally', async () => {
    const data = freshFolder();
    await crashMidTool(await startServeProcess(data, env, ['--no-sample']), 'crash', 30);
    const restarted = await startServeProcess(data, env, ['--no-sample']);
    try {
      const first = await post(restarted.url, '/api/agent/invoke', {
        message: 'first after the crash',
        sessionId: 'crash',
      });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.status, 'published');
      assert.equal(first.body.response, 'answer: first after the crash');
      const second = await post(restarted.url, '/api/agent/invoke', {
        message: 'and the second',
        sessionId: 'crash',
      });
      assert.equal(second.body.status, 'published');
      const sent = model.requests.at(-1)?.body.messages ?? [];
      const closing = sent.find((message) => message.role === 'tool');
      assert.match(String(closing?.content), /interrupted/);
      const session = (await (await fetch(`${restarted.url}/api/sessions/crash`)).json()) as Json;
      const toolMessages = session.messages.filter((message: Json) => message.role === 'tool');
      assert.equal(toolMessages.length, 1);
      assert.equal(toolMessages[0].isError, true);
      assert.match(toolMessages[0].content, /^Error: not run \(the run was interrupted/);
    } finally {
      await restarted.stop();
    }
  });

  it('lets the CLI abandon the interrupted run, once', async () => {
    const data = freshFolder();
    await crashMidTool(await startServeProcess(data, env, ['--no-sample']), 'dropped', 30);
    const abandon = await runYeoul(['sessions', 'abandon', 'dropped', '--data', data], { env });
    assert.equal(abandon.code, 0, abandon.stderr);
    assert.match(abandon.stdout, /abandoned the interrupted run of session dropped/);
    const again = await runYeoul(['sessions', 'abandon', 'dropped', '--data', data], { env });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /^yeoul: session "dropped" has no interrupted run\n$/);
    const show = await runYeoul(['sessions', 'show', 'dropped', '--json', '--data', data], { env });
    const messages = JSON.parse(show.stdout).messages as Json[];
    assert.match(messages.at(-1).content, /^Error: not run/);
  });

  it('lets the CLI resume the interrupted run: the step runs again and the answer comes', async () => {
    const data = freshFolder();
    await crashMidTool(await startServeProcess(data, env, ['--no-sample']), 'again', 1);
    const resumed = await runYeoul(['sessions', 'resume', 'again', '--data', data], {
      env,
      timeoutMs: 90_000,
    });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stdout, /← python_repl: stdout: slept\ndone: stdout:\s+slept/);
    const none = await runYeoul(['sessions', 'resume', 'again', '--data', data], { env });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /has no interrupted run/);
  });
});

describe('cancelling a run', () => {
  it('stops the run going with POST /api/sessions/:id/cancel; the stream ends with done', async () => {
    const model = await startFakeOpenAiServer([{ kind: 'hang' }]);
    const server = await startServeProcess(
      freshFolder(),
      { YEOUL_MODEL: 'compat:slow', YEOUL_COMPAT_BASE_URL: model.baseUrl },
      ['--no-sample'],
    );
    try {
      const response = await fetch(`${server.url}/api/agent/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'hello', sessionId: 'stop-me' }),
      });
      const reading = readEvents(response);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const cancel = await fetch(`${server.url}/api/sessions/stop-me/cancel`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(cancel.status, 202);
      const events = await reading;
      const done = events.at(-1);
      assert.equal(done?.event, 'done');
      assert.equal((done as Json).data.status, 'cancelled');
      const again = await fetch(`${server.url}/api/sessions/stop-me/cancel`, { method: 'POST' });
      assert.equal(again.status, 404);
      assert.equal(((await again.json()) as Json).error.code, 'no_active_run');
      const status = (await (await fetch(`${server.url}/api/agent/status`)).json()) as Json;
      assert.equal(status.activeRuns, 0);
      const session = (await (await fetch(`${server.url}/api/sessions/stop-me`)).json()) as Json;
      assert.equal(session.status, 'cancelled');
    } finally {
      await server.stop();
      await model.close();
    }
  });
});
