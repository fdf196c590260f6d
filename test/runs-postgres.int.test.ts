import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type ChatCompletionRequest,
  type FakeOpenAiServer,
  type PostgresServer,
  readEvents,
  type ServeProcess,
  startFakeOpenAiServer,
  startPostgresServer,
  startServeProcess,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-runs-pg-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A "slow" message is answered after 3 s, any other after 100 ms. */
const latency = (request: ChatCompletionRequest) =>
  String(request.body.messages.at(-1)?.content ?? '').includes('slow') ? 3_000 : 100;

describe('runs on two instances sharing one PostgreSQL', () => {
  let database: PostgresServer;
  let model: FakeOpenAiServer;
  let a: ServeProcess;
  let b: ServeProcess;
  before(async () => {
    database = await startPostgresServer();
    model = await startFakeOpenAiServer(
      (request) => ({
        kind: 'text',
        text: `answer: ${String(request.body.messages.at(-1)?.content ?? '')}`,
      }),
      { delayMs: latency },
    );
    const url = await database.createDatabase();
    const env = {
      DATABASE_URL: url,
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

  it('waits on, streams and lists from one instance a run another started', async () => {
    const started = await call(a, '/api/runs', { message: 'hello', sessionId: 'pg-1' });
    assert.equal(started.status, 202);
    const run = await call(b, `/api/runs/${started.body.runId}?wait=30`);
    assert.equal(run.body.status, 'done', JSON.stringify(run.body));
    assert.equal(run.body.result.response, 'answer: hello');
    const events = await readEvents(await fetch(`${b.url}/api/runs/${started.body.runId}/stream`));
    assert.equal(events.at(-1)?.event, 'done');
    const listed = await call(b, '/api/runs?sessionId=pg-1');
    assert.deepEqual(
      listed.body.runs.map((one: Json) => one.runId),
      [started.body.runId],
    );
  });

  it('cancels from one instance a run another runs', async () => {
    const started = await call(a, '/api/runs', { message: 'slow one', sessionId: 'pg-2' });
    for (let tries = 0; tries < 100; tries += 1) {
      if ((await call(b, `/api/runs/${started.body.runId}`)).body.status === 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const cancelled = await call(b, `/api/runs/${started.body.runId}/cancel`, {});
    assert.equal(cancelled.status, 202, JSON.stringify(cancelled.body));
    const ended = await call(b, `/api/runs/${started.body.runId}?wait=30`);
    assert.equal(ended.body.status, 'cancelled', JSON.stringify(ended.body));
    assert.deepEqual(ended.body.cancelReason, { type: 'request' });
    const again = await call(a, `/api/runs/${started.body.runId}/cancel`, {});
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'run_ended');
  });
});
