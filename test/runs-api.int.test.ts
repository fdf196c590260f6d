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
  type ServeProcess,
  startFakeOpenAiServer,
  startServeProcess,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-runs-api-'));
after(() => rmSync(root, { recursive: true, force: true }));

const alice = 'runs-test-key-alice-0001';
const bob = 'runs-test-key-bob-0000002';

/** "write X" → one write_file call (which waits for approval); else an answer naming the message. */
function scripted(request: ChatCompletionRequest, index: number): FakeCompletion {
  const messages = request.body.messages;
  const last = messages.at(-1);
  if (last?.role === 'tool') return { kind: 'text', text: `done (${String(last.content)})` };
  const text = String(last?.content ?? '');
  const file = /write (\S+)/.exec(text)?.[1];
  if (file) {
    return {
      kind: 'tool-calls',
      calls: [
        {
          id: `w-${index}`,
          name: 'write_file',
          arguments: JSON.stringify({ path: file, content: 'x' }),
        },
      ],
    };
  }
  return { kind: 'text', text: `answer: ${text}` };
}

/** The model answers a "slow" message after 3 s, any other after 100 ms. */
function latency(request: ChatCompletionRequest): number {
  const last = String(request.body.messages.at(-1)?.content ?? '');
  return last.includes('slow') ? 3_000 : 100;
}

describe('runs over HTTP (a real server process, a scripted model with latency)', () => {
  let model: FakeOpenAiServer;
  let server: ServeProcess;
  before(async () => {
    model = await startFakeOpenAiServer(scripted, { delayMs: latency });
    server = await startServeProcess(
      mkdtempSync(join(root, 'data-')),
      {
        YEOUL_MODEL: 'compat:scripted',
        YEOUL_COMPAT_BASE_URL: model.baseUrl,
        YEOUL_API_KEYS: `${alice},${bob}`,
      },
      ['--no-sample'],
    );
  });
  after(async () => {
    await server?.stop();
    await model?.close();
  });

  const call = async (path: string, body?: unknown, method = 'POST', key = alice) => {
    const response = await fetch(server.url + path, {
      method,
      headers: {
        'x-api-key': key,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? (JSON.parse(text) as Json) : undefined,
    };
  };
  const get = (path: string, key = alice) => call(path, undefined, 'GET', key);
  const historyRunIds = async (sessionId: string) =>
    (await get(`/api/sessions/${sessionId}/history`)).body.steps.map((step: Json) => step.runId);

  it('answers 202 at once with the run queued, and the run goes on to its answer', async () => {
    const started = await call('/api/runs', { message: 'hello there', sessionId: 'bg-1' });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    assert.equal(started.headers.get('location'), `/api/runs/${started.body.runId}`);
    assert.equal(started.body.sessionId, 'bg-1');
    assert.ok(['queued', 'running'].includes(started.body.status));
    assert.ok(Date.parse(started.body.createdAt) > 0);
    const run = await get(`/api/runs/${started.body.runId}?wait=30`);
    assert.equal(run.status, 200);
    assert.equal(run.body.status, 'done', JSON.stringify(run.body));
    assert.equal(run.body.source, 'api');
    assert.equal(run.body.graph, 'chat');
    assert.equal(run.body.message, 'hello there');
    assert.equal(run.body.attempts, 1);
    assert.equal(typeof run.body.instanceId, 'string');
    assert.ok(run.body.startedAt && run.body.endedAt);
    assert.equal(run.body.result.response, 'answer: hello there');
    assert.equal(run.body.result.runId, started.body.runId);
    const ids = await historyRunIds('bg-1');
    assert.ok(ids.length > 0);
    assert.deepEqual(new Set(ids), new Set([started.body.runId]));
  });

  it('gives invoke and stream bodies the runId their history steps carry, and records them', async () => {
    const invoked = await call('/api/agent/invoke', { message: 'first', sessionId: 'fg-1' });
    assert.equal(invoked.status, 200);
    assert.equal(typeof invoked.body.runId, 'string');
    const response = await fetch(`${server.url}/api/agent/stream`, {
      method: 'POST',
      headers: { 'x-api-key': alice, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'second', sessionId: 'fg-1' }),
    });
    const events = await readEvents(response);
    const done = events.at(-1) as { event: string; data: Json; id?: string };
    assert.equal(done.event, 'done');
    const streamedRunId = done.data.runId;
    assert.notEqual(streamedRunId, invoked.body.runId);
    for (const event of events) assert.ok(event.id?.startsWith(`${streamedRunId}:`), event.id);
    const ids: string[] = await historyRunIds('fg-1');
    assert.deepEqual([...new Set(ids)], [invoked.body.runId, streamedRunId]);
    const listed = await get('/api/runs?sessionId=fg-1');
    assert.deepEqual(
      listed.body.runs.map((run: Json) => [run.runId, run.source, run.status]),
      [
        [streamedRunId, 'stream', 'done'],
        [invoked.body.runId, 'invoke', 'done'],
      ],
    );
    assert.equal('result' in listed.body.runs[0], false);
    const one = await get(`/api/runs/${invoked.body.runId}`);
    assert.equal(one.body.result.response, 'answer: first');
  });

  it('streams a run from its first event, and again after Last-Event-ID', async () => {
    const started = await call('/api/runs', { message: 'tell me more', sessionId: 'st-1' });
    const first = await fetch(`${server.url}/api/runs/${started.body.runId}/stream`, {
      headers: { 'x-api-key': alice },
    });
    assert.equal(first.status, 200);
    const events = await readEvents(first);
    assert.equal(events.at(-1)?.event, 'done');
    assert.equal((events.at(-1) as { data: Json }).data.response, 'answer: tell me more');
    assert.ok(events.length >= 3);
    for (const event of events) assert.ok(event.id?.startsWith(`${started.body.runId}:`));
    const again = await fetch(`${server.url}/api/runs/${started.body.runId}/stream`, {
      headers: { 'x-api-key': alice, 'last-event-id': events[1]?.id as string },
    });
    const rest = await readEvents(again);
    assert.deepEqual(
      rest.map((event) => event.id),
      events.slice(2).map((event) => event.id),
    );
  });

  it('cancels a queued run (it never starts) and a running one; an ended one is 409', async () => {
    const slow = await call('/api/runs', { message: 'slow one', sessionId: 'cx-1' });
    const queued = await call('/api/runs', { message: 'never run', sessionId: 'cx-1' });
    assert.equal(queued.status, 202);
    const cancelQueued = await call(`/api/runs/${queued.body.runId}/cancel`);
    assert.equal(cancelQueued.status, 202, JSON.stringify(cancelQueued.body));
    assert.deepEqual(cancelQueued.body, { runId: queued.body.runId, status: 'cancelled' });
    const cancelRunning = await call(`/api/runs/${slow.body.runId}/cancel`);
    assert.equal(cancelRunning.status, 202);
    const stopped = await get(`/api/runs/${slow.body.runId}?wait=30`);
    assert.equal(stopped.body.status, 'cancelled');
    assert.deepEqual(stopped.body.cancelReason, { type: 'request' });
    assert.equal(stopped.body.result.status, 'cancelled');
    assert.deepEqual(stopped.body.result.cancelReason, { type: 'request' });
    const never = await get(`/api/runs/${queued.body.runId}?wait=30`);
    assert.equal(never.body.status, 'cancelled');
    assert.deepEqual(never.body.cancelReason, { type: 'request' });
    const history = await get('/api/sessions/cx-1');
    assert.equal(
      history.body.messages.some((message: Json) => String(message.content).includes('never run')),
      false,
      'the queued run left nothing',
    );
    const ended = await call(`/api/runs/${slow.body.runId}/cancel`);
    assert.equal(ended.status, 409);
    assert.equal(ended.body.error.code, 'run_ended');
  });

  it('records an invoke whose client left as cancelled with cancelReason client_left', async () => {
    const controller = new AbortController();
    const leaving = fetch(`${server.url}/api/agent/invoke`, {
      method: 'POST',
      headers: { 'x-api-key': alice, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'slow and left', sessionId: 'left-1' }),
      signal: controller.signal,
    }).catch(() => undefined);
    let run: Json;
    for (let tries = 0; run?.status !== 'running' && tries < 100; tries += 1) {
      [run] = (await get('/api/runs?sessionId=left-1')).body.runs;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    controller.abort();
    await leaving;
    const ended = await get(`/api/runs/${run.runId}?wait=30`);
    assert.equal(ended.body.status, 'cancelled', JSON.stringify(ended.body));
    assert.deepEqual(ended.body.cancelReason, { type: 'client_left' });
    assert.deepEqual(ended.body.result.cancelReason, { type: 'client_left' });
  });

  it('lists the caller’s runs newest first, by status and limit; bad filters are 400', async () => {
    const done = await get('/api/runs?status=done');
    assert.ok(done.body.runs.length >= 3);
    assert.ok(done.body.runs.every((run: Json) => run.status === 'done'));
    const createdAt = done.body.runs.map((run: Json) => run.createdAt);
    assert.deepEqual(createdAt, [...createdAt].sort().reverse());
    const some = await get('/api/runs?status=done,cancelled&limit=2');
    assert.equal(some.body.runs.length, 2);
    const cancelled = await get('/api/runs?status=cancelled&sessionId=cx-1');
    assert.equal(cancelled.body.runs.length, 2);
    for (const bad of ['status=finished', 'limit=0', 'limit=201', 'color=red', 'sessionId=a/b']) {
      const refused = await get(`/api/runs?${bad}`);
      assert.equal(refused.status, 400, bad);
      assert.equal(typeof refused.body.error.code, 'string');
    }
    assert.deepEqual((await get('/api/runs?sessionId=fg-1', bob)).body, { runs: [] });
    assert.deepEqual((await get('/api/runs?sessionId=unknown-session')).body, { runs: [] });
  });

  it('answers 404 run_not_found for another owner’s run, as for an unknown one', async () => {
    const [run] = (await get('/api/runs?limit=1')).body.runs;
    for (const path of [`/api/runs/${run.runId}`, '/api/runs/never-was']) {
      const missing = await get(path, bob);
      assert.equal(missing.status, 404);
      assert.equal(missing.body.error.code, 'run_not_found');
    }
    const cancel = await call(`/api/runs/${run.runId}/cancel`, undefined, 'POST', bob);
    assert.equal(cancel.status, 404);
    const stream = await get(`/api/runs/${run.runId}/stream`, bob);
    assert.equal(stream.status, 404);
    const badId = await get('/api/runs/not%20an%20id');
    assert.equal(badId.status, 400);
    const badWait = await get(`/api/runs/${run.runId}?wait=61`);
    assert.equal(badWait.status, 400);
  });

  it('pauses for approval, refuses a message meanwhile, and goes on under the same runId', async () => {
    const started = await call('/api/runs', { message: 'please write a.txt', sessionId: 'ap-1' });
    const paused = await get(`/api/runs/${started.body.runId}?wait=30`);
    assert.equal(paused.body.status, 'interrupted', JSON.stringify(paused.body));
    const [pending] = paused.body.result.interrupts;
    assert.equal(pending.tool, 'write_file');
    const busy = await call('/api/runs', { message: 'something else', sessionId: 'ap-1' });
    assert.equal(busy.status, 409);
    assert.equal(busy.body.error.code, 'awaiting_approval');
    const resumed = await call('/api/runs', {
      sessionId: 'ap-1',
      resume: { decisions: [{ id: pending.id, approve: true }] },
    });
    assert.equal(resumed.status, 202, JSON.stringify(resumed.body));
    assert.equal(resumed.body.runId, started.body.runId);
    const finished = await get(`/api/runs/${started.body.runId}?wait=30`);
    assert.equal(finished.body.status, 'done', JSON.stringify(finished.body));
    const twice = await call('/api/runs', {
      sessionId: 'ap-1',
      resume: { decisions: [{ id: pending.id, approve: true }] },
    });
    assert.equal(twice.status, 409);
    assert.equal(twice.body.error.code, 'already_decided');
    const notPaused = await call('/api/runs', {
      sessionId: 'ap-1',
      resume: { decisions: [{ id: 'never-asked', approve: true }] },
    });
    assert.equal(notPaused.status, 409);
    assert.equal(notPaused.body.error.code, 'not_interrupted');
    // The part after the decisions numbers its events past the paused part's.
    const tail = await readEvents(
      await fetch(`${server.url}/api/runs/${started.body.runId}/stream`, {
        headers: { 'x-api-key': alice },
      }),
    );
    assert.equal(tail.at(-1)?.event, 'done');
    for (const event of tail) {
      const [runId, n] = (event.id as string).split(':');
      assert.equal(runId, started.body.runId);
      assert.ok(Number(n) > 1_000_000, event.id);
    }
    assert.match(finished.body.result.response, /^done \(/);
    assert.deepEqual(new Set(await historyRunIds('ap-1')), new Set([started.body.runId]));
    assert.equal((await get('/api/runs?sessionId=ap-1')).body.runs.length, 1);
  });

  it('deletes a session’s runs with the session', async () => {
    const started = await call('/api/runs', { message: 'short lived', sessionId: 'del-1' });
    await get(`/api/runs/${started.body.runId}?wait=30`);
    const deleted = await call('/api/sessions/del-1', undefined, 'DELETE');
    assert.ok(deleted.status < 300, String(deleted.status));
    assert.equal((await get(`/api/runs/${started.body.runId}`)).status, 404);
    assert.deepEqual((await get('/api/runs?sessionId=del-1')).body, { runs: [] });
  });

  it('lists the runs routes in /openapi.json', async () => {
    const document = (await get('/openapi.json')).body;
    for (const path of [
      '/api/runs',
      '/api/runs/{id}',
      '/api/runs/{id}/stream',
      '/api/runs/{id}/cancel',
    ]) {
      assert.ok(document.paths[path], path);
    }
  });
});

describe('runs across a server killed mid-run (SIGKILL, the same data folder)', () => {
  let model: FakeOpenAiServer;
  let env: Record<string, string>;
  before(async () => {
    model = await startFakeOpenAiServer(scripted, { delayMs: latency });
    env = { YEOUL_MODEL: 'compat:scripted', YEOUL_COMPAT_BASE_URL: model.baseUrl };
  });
  after(() => model?.close());

  const call = async (url: string, path: string, body?: unknown) => {
    const response = await fetch(url + path, {
      method: body === undefined ? 'GET' : 'POST',
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    return (await response.json()) as Json;
  };
  const historyRunIds = async (url: string, sessionId: string) =>
    (await call(url, `/api/sessions/${sessionId}/history`)).steps.map((step: Json) => step.runId);
  const untilRunning = async (url: string, runId: string) => {
    for (let tries = 0; tries < 100; tries += 1) {
      if ((await call(url, `/api/runs/${runId}`)).status === 'running') return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`run ${runId} never started`);
  };

  it('takes a background run up again with the super-step cap it was started with', async () => {
    const data = mkdtempSync(join(root, 'capped-'));
    const first = await startServeProcess(data, env, ['--no-sample']);
    // A text answer takes three steps (input, llm, response): past a cap of 2 it fails.
    const run = await call(first.url, '/threads/cap-1/runs', {
      assistant_id: 'react',
      input: { messages: [{ type: 'human', content: 'slow capped' }] },
      if_not_exists: 'create',
      config: { recursion_limit: 2 },
    });
    await untilRunning(first.url, run.run_id);
    await first.kill();
    const second = await startServeProcess(data, env, ['--no-sample']);
    try {
      const ended = await call(second.url, `/api/runs/${run.run_id}?wait=30`);
      assert.equal(ended.attempts, 2, JSON.stringify(ended));
      assert.equal(ended.status, 'failed', JSON.stringify(ended));
      assert.equal(ended.error.code, 'graph_recursion_limit');
    } finally {
      await second.stop();
    }
  });

  it('takes a background run up again (attempts 2), and fails one lost twice or waited on', async () => {
    const data = mkdtempSync(join(root, 'restart-'));
    const first = await startServeProcess(data, env, ['--no-sample']);
    const twice = await call(first.url, '/api/runs', { message: 'slow twice', sessionId: 'r-1' });
    const waited = fetch(`${first.url}/api/agent/invoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'slow waited', sessionId: 'r-3' }),
    }).catch(() => undefined);
    await untilRunning(first.url, twice.runId);
    let invoked: Json;
    for (let tries = 0; invoked === undefined && tries < 100; tries += 1) {
      [invoked] = (await call(first.url, '/api/runs?sessionId=r-3')).runs;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await untilRunning(first.url, invoked.runId);
    await first.kill();
    await waited;

    const second = await startServeProcess(data, env, ['--no-sample']);
    const lostWaited = await call(second.url, `/api/runs/${invoked.runId}?wait=30`);
    assert.equal(lostWaited.status, 'failed', JSON.stringify(lostWaited));
    assert.equal(lostWaited.error.code, 'run_lost');
    const background = await call(second.url, '/api/runs', {
      message: 'slow again',
      sessionId: 'r-2',
    });
    await untilRunning(second.url, background.runId);
    const again = await call(second.url, `/api/runs/${twice.runId}`);
    assert.equal(again.attempts, 2);
    const secondInstance = again.instanceId;
    await untilRunning(second.url, twice.runId);
    await second.kill();

    const third = await startServeProcess(data, env, ['--no-sample']);
    try {
      const resumed = await call(third.url, `/api/runs/${background.runId}?wait=30`);
      assert.equal(resumed.status, 'done', JSON.stringify(resumed));
      assert.equal(resumed.attempts, 2);
      assert.notEqual(resumed.instanceId, secondInstance);
      assert.equal(resumed.result.response, 'answer: slow again');
      assert.deepEqual(new Set(await historyRunIds(third.url, 'r-2')), new Set([background.runId]));
      const lostTwice = await call(third.url, `/api/runs/${twice.runId}?wait=30`);
      assert.equal(lostTwice.status, 'failed', JSON.stringify(lostTwice));
      assert.equal(lostTwice.error.code, 'run_lost');
      const next = await call(third.url, '/api/agent/invoke', {
        message: 'again',
        sessionId: 'r-3',
      });
      assert.equal(next.status, 'published', JSON.stringify(next));
    } finally {
      await third.stop();
    }
  });
});
