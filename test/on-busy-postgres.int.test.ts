import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type ChatCompletionRequest,
  type FakeCompletion,
  type FakeOpenAiServer,
  type PostgresServer,
  readEvents,
  type ServeProcess,
  startFakeOpenAiServer,
  startPostgresServer,
  startServeProcess,
  waitUntil,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-on-busy-pg-'));
after(() => rmSync(root, { recursive: true, force: true }));

function lastUser(request: ChatCompletionRequest): string {
  const user = request.body.messages.filter((message) => message.role === 'user').at(-1);
  return String(user?.content ?? '');
}

/** "hang …" streams a half answer and never finishes; any other message is answered. */
function scripted(request: ChatCompletionRequest): FakeCompletion {
  const text = lastUser(request);
  if (text.startsWith('hang')) return { kind: 'stall', text: '가다 만 답 ' };
  return { kind: 'text', text: `answer: ${text}` };
}

describe('onBusy across two instances sharing one PostgreSQL', () => {
  let database: PostgresServer;
  let model: FakeOpenAiServer;
  let a: ServeProcess;
  let b: ServeProcess;
  before(async () => {
    database = await startPostgresServer();
    model = await startFakeOpenAiServer(scripted);
    const env = {
      DATABASE_URL: await database.createDatabase(),
      YEOUL_MODEL: 'compat:s',
      YEOUL_COMPAT_BASE_URL: model.baseUrl,
    };
    a = await startServeProcess(join(root, 'a'), env, ['--no-sample']);
    b = await startServeProcess(join(root, 'b'), env, ['--no-sample']);
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await model?.close();
    await database?.stop();
  });

  const call = async (server: ServeProcess, path: string, body?: unknown) => {
    const response = await fetch(server.url + path, {
      method: body === undefined ? 'GET' : 'POST',
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const requestsOf = (message: string) => model.requests.filter((r) => lastUser(r) === message);
  const inModelCall = (message: string) =>
    waitUntil(() => requestsOf(message).length > 0, `the model call of "${message}"`);

  it('a message to instance B interrupts the run going on instance A', async () => {
    const old = call(a, '/api/agent/invoke', { sessionId: 'pg-i', message: 'hang on a' });
    await inModelCall('hang on a');
    const next = await call(b, '/api/agent/invoke', {
      sessionId: 'pg-i',
      message: 'to b',
      options: { onBusy: 'interrupt' },
    });
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.equal(next.body.status, 'published');
    const stopped = (await old).body;
    assert.equal(stopped.status, 'cancelled');
    assert.deepEqual(stopped.cancelReason, {
      type: 'superseded',
      runId: next.body.runId,
      onBusy: 'interrupt',
    });
    for (const server of [a, b]) {
      const messages = (await call(server, '/api/sessions/pg-i')).body.messages as Json[];
      assert.deepEqual(
        messages.map((message) => [message.content, message.interrupted ?? false]),
        [
          ['hang on a', false],
          ['', true],
          ['to b', false],
          ['answer: to b', false],
        ],
      );
    }
    assert.equal(requestsOf('hang on a').length, 1);
  });

  it('a rollback sent to B removes the run A was streaming, as both instances see it', async () => {
    await call(a, '/api/agent/invoke', { sessionId: 'pg-r', message: 'kept' });
    const response = await fetch(`${a.url}/api/agent/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId: 'pg-r', message: 'hang streamed on a' }),
    });
    const events = readEvents(response, (event) => event.event === 'done');
    await inModelCall('hang streamed on a');
    const next = await call(b, '/api/runs', {
      sessionId: 'pg-r',
      message: 'instead',
      options: { onBusy: 'rollback' },
    });
    assert.equal(next.status, 202, JSON.stringify(next.body));
    const done = (await events).at(-1) as { data: Json };
    assert.equal(done.data.status, 'cancelled');
    assert.deepEqual(done.data.cancelReason, {
      type: 'superseded',
      runId: next.body.runId,
      onBusy: 'rollback',
    });
    const ended = (await call(a, `/api/runs/${next.body.runId}?wait=30`)).body;
    assert.equal(ended.status, 'done', JSON.stringify(ended));
    const oldRun = (await call(b, `/api/runs/${done.data.runId}`)).body;
    assert.equal(oldRun.status, 'cancelled');
    for (const server of [a, b]) {
      const steps = (await call(server, '/api/sessions/pg-r/history')).body.steps as Json[];
      assert.ok(steps.every((step) => step.runId !== done.data.runId));
      const messages = (await call(server, '/api/sessions/pg-r')).body.messages as Json[];
      assert.deepEqual(
        messages.map((message) => message.content),
        ['kept', 'answer: kept', 'instead', 'answer: instead'],
      );
    }
    assert.ok(
      requestsOf('instead')
        .at(-1)
        ?.body.messages.every((message) => message.content !== 'hang streamed on a'),
    );
  });
});
