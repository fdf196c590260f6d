import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type ChatCompletionRequest,
  type FakeCompletion,
  type FakeOpenAiServer,
  startFakeOpenAiServer,
} from '../src/testing/internal/index.ts';
import { startTestServer, type TestServer } from '../src/testing/internal/test-server.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-schedules-api-'));
after(() => rmSync(root, { recursive: true, force: true }));

const alice = 'schedules-test-key-alice-01';
const bob = 'schedules-test-key-bob-0002';

/** Answers every message by naming it. */
function scripted(request: ChatCompletionRequest): FakeCompletion {
  return { kind: 'text', text: `answer: ${String(request.body.messages.at(-1)?.content ?? '')}` };
}

/** Polls `read` every 200 ms until `done` holds of its answer, for up to `ms`. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000) {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await sleep(200);
    value = await read();
  }
  return value;
}

describe('schedules over HTTP (a scripted model)', () => {
  let model: FakeOpenAiServer;
  let test: TestServer;
  const dataDir = mkdtempSync(join(root, 'data-'));
  const env = () => ({
    YEOUL_MODEL: 'compat:scripted',
    YEOUL_COMPAT_BASE_URL: model.baseUrl,
    YEOUL_API_KEYS: `${alice},${bob}`,
    YEOUL_SAMPLE_KNOWLEDGE: 'false',
  });
  before(async () => {
    model = await startFakeOpenAiServer(scripted, {
      delayMs: (request) =>
        String(request.body.messages.at(-1)?.content ?? '').includes('slow') ? 3_000 : 0,
    });
    test = await startTestServer(dataDir, env());
  });
  after(async () => {
    await test?.server.close();
    await model?.close();
  });

  const call = async (path: string, body?: unknown, method = 'POST', key = alice) => {
    const response = await fetch(test.server.url + path, {
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
      body: (text === '' ? undefined : JSON.parse(text)) as Json,
    };
  };
  const runsOf = async (scheduleId: string) =>
    (await call(`/api/runs?scheduleId=${scheduleId}`, undefined, 'GET')).body.runs as Json[];

  it('makes, lists, shows, changes and deletes a schedule, for its owner only', async () => {
    const made = await call('/api/schedules', { cron: '0 9 * * 1-5', message: 'report' });
    assert.equal(made.status, 201);
    assert.equal(made.headers.get('location'), `/api/schedules/${made.body.id}`);
    assert.equal(made.body.timezone, 'UTC');
    assert.equal(made.body.onBusy, 'enqueue');
    assert.equal(made.body.enabled, true);
    assert.equal(made.body.webhook, null);
    assert.match(made.body.nextRunAt, /Z$/);
    const id = made.body.id;

    const listed = await call('/api/schedules', undefined, 'GET');
    assert.deepEqual(
      listed.body.schedules.map((schedule: Json) => schedule.id),
      [id],
    );
    assert.deepEqual((await call('/api/schedules', undefined, 'GET', bob)).body.schedules, []);
    assert.equal((await call(`/api/schedules/${id}`, undefined, 'GET')).body.message, 'report');

    const bobSees = await call(`/api/schedules/${id}`, undefined, 'GET', bob);
    assert.equal(bobSees.status, 404);
    assert.equal(bobSees.body.error.code, 'schedule_not_found');
    assert.equal(
      (await call(`/api/schedules/${id}`, { enabled: false }, 'PATCH', bob)).status,
      404,
    );
    assert.equal((await call(`/api/schedules/${id}`, undefined, 'DELETE', bob)).status, 404);
    assert.equal((await call(`/api/schedules/${id}/run`, undefined, 'POST', bob)).status, 404);
    assert.equal((await call('/api/schedules/nope', undefined, 'GET')).status, 404);

    const paused = await call(`/api/schedules/${id}`, { enabled: false, name: 'daily' }, 'PATCH');
    assert.equal(paused.status, 200);
    assert.equal(paused.body.enabled, false);
    assert.equal(paused.body.nextRunAt, null);
    assert.equal(paused.body.name, 'daily');

    const badPatch = await call(`/api/schedules/${id}`, { cron: '0 0 30 2 *' }, 'PATCH');
    assert.equal(badPatch.status, 400);
    assert.match(badPatch.body.error.message, /cron/);

    assert.equal((await call(`/api/schedules/${id}`, undefined, 'DELETE')).status, 204);
    assert.equal((await call(`/api/schedules/${id}`, undefined, 'GET')).status, 404);
  });

  it('refuses a bad cron, a bad timezone, an unknown field, another owner’s session', async () => {
    const cases: Array<[Json, RegExp]> = [
      [{ cron: 'every day', message: 'x' }, /cron/],
      [{ cron: '0 0 30 2 *', message: 'x' }, /cron/],
      [{ cron: '* * * * *', timezone: 'Mars/Olympus', message: 'x' }, /timezone/],
      [{ cron: '* * * * *', message: 'x', colour: 'red' }, /colour/],
    ];
    for (const [body, names] of cases) {
      const refused = await call('/api/schedules', body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.equal(refused.body.error.code, 'invalid_request');
      assert.match(JSON.stringify(refused.body.error), names);
    }
    const unknownGraph = await call('/api/schedules', {
      cron: '* * * * *',
      message: 'x',
      graph: 'no-such-graph',
    });
    assert.equal(unknownGraph.status, 404);

    const bobs = await call('/api/runs', { message: 'mine' }, 'POST', bob);
    assert.equal(bobs.status, 202);
    const taken = await call('/api/schedules', {
      cron: '* * * * *',
      message: 'x',
      sessionId: bobs.body.sessionId,
    });
    assert.equal(taken.status, 404);
    // A webhook is checked as POST /api/runs checks one (no secret set here).
    const hooked = await call('/api/schedules', {
      cron: '* * * * *',
      message: 'x',
      webhook: 'https://hooks.example.com/yeoul',
    });
    assert.equal(hooked.status, 400);
    assert.equal(hooked.body.error.code, 'webhook_secret_missing');
    const badShape = await call('/api/schedules', { cron: '* * * * *', message: 'x', webhook: 42 });
    assert.equal(badShape.status, 400);
    assert.deepEqual((await call('/api/schedules', undefined, 'GET')).body.schedules, []);
  });

  it('fires every 2 s, stops when disabled, and runs by hand with scheduledFor null', async () => {
    const made = await call('/api/schedules', { cron: '*/2 * * * * *', message: 'tick' });
    assert.equal(made.status, 201);
    const id = made.body.id;
    const runs = await until(
      () => runsOf(id),
      (listed) => listed.length >= 3,
    );
    assert.ok(runs.length >= 3, `${runs.length} runs`);
    for (const run of runs) {
      assert.equal(run.source, 'schedule');
      assert.equal(run.scheduleId, id);
      assert.match(run.scheduledFor, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
    }
    assert.equal(new Set(runs.map((run) => run.scheduledFor)).size, runs.length);
    assert.equal(new Set(runs.map((run) => run.sessionId)).size, runs.length);

    const paused = await call(`/api/schedules/${id}`, { enabled: false }, 'PATCH');
    assert.equal(paused.status, 200);
    await sleep(1_000); // a slot claimed just before the change may still store its run
    const stopped = (await runsOf(id)).length;
    await sleep(4_500);
    assert.equal((await runsOf(id)).length, stopped);

    const byHand = await call(`/api/schedules/${id}/run`);
    assert.equal(byHand.status, 202);
    assert.ok(byHand.body.runId && byHand.body.sessionId && byHand.body.status);
    const run = await call(`/api/runs/${byHand.body.runId}?wait=10`, undefined, 'GET');
    assert.equal(run.body.status, 'done');
    assert.equal(run.body.scheduledFor, null);
    assert.equal(run.body.scheduleId, id);
    assert.equal(run.body.source, 'schedule');
    const shown = await call(`/api/schedules/${id}`, undefined, 'GET');
    assert.equal(shown.body.lastRunId, byHand.body.runId);
  });

  it('keeps a firing refused on a busy session (onBusy reject) as a failed run', async () => {
    const slow = await call('/api/runs', { message: 'slow one', sessionId: 'busy-session-1' });
    assert.equal(slow.status, 202);
    const made = await call('/api/schedules', {
      cron: '* * * * *',
      message: 'while busy',
      sessionId: 'busy-session-1',
      onBusy: 'reject',
      enabled: false,
    });
    const refused = await call(`/api/schedules/${made.body.id}/run`);
    assert.equal(refused.status, 202);
    const run = await call(`/api/runs/${refused.body.runId}`, undefined, 'GET');
    assert.equal(run.body.status, 'failed');
    assert.equal(run.body.error.code, 'session_busy');
    assert.equal(run.body.scheduleId, made.body.id);
    assert.equal(
      (await call(`/api/runs/${slow.body.runId}?wait=10`, undefined, 'GET')).body.status,
      'done',
    );
  });

  it('keeps a session for a schedule that names one, made at the first firing', async () => {
    const made = await call('/api/schedules', {
      cron: '* * * * *',
      message: 'hello',
      sessionId: 'schedule-session-1',
      enabled: false,
    });
    assert.equal(made.status, 201);
    const first = await call(`/api/schedules/${made.body.id}/run`);
    assert.equal(first.body.sessionId, 'schedule-session-1');
    await call(`/api/runs/${first.body.runId}?wait=10`, undefined, 'GET');
    const session = await call('/api/sessions/schedule-session-1', undefined, 'GET');
    assert.equal(session.status, 200);
    assert.equal(
      (await call('/api/sessions/schedule-session-1', undefined, 'GET', bob)).status,
      404,
    );
  });
});

describe('schedule firings against their owner’s limits', () => {
  let model: FakeOpenAiServer;
  let test: TestServer;
  before(async () => {
    model = await startFakeOpenAiServer(scripted);
    test = await startTestServer(mkdtempSync(join(root, 'limits-')), {
      YEOUL_MODEL: 'compat:scripted',
      YEOUL_COMPAT_BASE_URL: model.baseUrl,
      YEOUL_API_KEYS: `${alice},${bob}`,
      YEOUL_SAMPLE_KNOWLEDGE: 'false',
      YEOUL_REQUESTS_PER_MINUTE: '2',
    });
  });
  after(async () => {
    await test?.server.close();
    await model?.close();
  });

  const call = async (path: string, body?: unknown, key = alice, method = 'POST') => {
    const response = await fetch(test.server.url + path, {
      method: body === undefined && method === 'POST' ? 'GET' : method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };

  it('counts each firing as a run request of the owner; one over the rate is a failed run', async () => {
    const made = await call('/api/schedules', { cron: '* * * * * *', message: 'tick' });
    assert.equal(made.status, 201);
    const id = made.body.id;
    const refusedOf = (runs: Json[]) => runs.filter((run) => run.status === 'failed');
    const runs = await until(
      async () => (await call(`/api/runs?scheduleId=${id}`)).body.runs as Json[],
      (listed) => refusedOf(listed).length >= 2,
    );
    await call(`/api/schedules/${id}`, { enabled: false }, alice, 'PATCH');
    // Two firings in the minute are admitted; each later one is kept as a failed run.
    const admitted = runs.filter((run) => run.status !== 'failed');
    assert.equal(admitted.length, 2, JSON.stringify(runs));
    for (const run of refusedOf(runs)) {
      assert.equal(run.error.code, 'rate_limited');
      assert.equal(run.startedAt, null);
      const [first] = admitted.map((one) => one.scheduledFor).sort();
      assert.ok(run.scheduledFor > first, 'refused only once the two were counted');
    }
    // The firings counted to alice: her own request is over the rate now, bob's is not.
    const invoked = await call('/api/agent/invoke', { message: 'hello' });
    assert.equal(invoked.status, 429);
    assert.equal(invoked.body.error.code, 'rate_limited');
    assert.equal((await call('/api/agent/invoke', { message: 'hello' }, bob)).status, 200);
    // A run by hand is the caller's request: refused with 429, nothing started.
    const before = (await call(`/api/runs?scheduleId=${id}`)).body.runs.length;
    const byHand = await call(`/api/schedules/${id}/run`, {});
    assert.equal(byHand.status, 429, JSON.stringify(byHand.body));
    assert.equal(byHand.body.error.code, 'rate_limited');
    assert.equal((await call(`/api/runs?scheduleId=${id}`)).body.runs.length, before);
  });
});

describe('schedules across a restart', () => {
  let model: FakeOpenAiServer;
  const dataDir = mkdtempSync(join(root, 'restart-'));
  before(async () => {
    model = await startFakeOpenAiServer(scripted);
  });
  after(async () => {
    await model?.close();
  });

  it('fires once, as a catch-up, for the slots missed while no server served', async () => {
    const env = {
      YEOUL_MODEL: 'compat:scripted',
      YEOUL_COMPAT_BASE_URL: model.baseUrl,
      YEOUL_SAMPLE_KNOWLEDGE: 'false',
    };
    const json = async (url: string, init?: RequestInit) =>
      (await (await fetch(url, init)).json()) as Json;
    const first = await startTestServer(dataDir, env);
    let id: string;
    try {
      const made = await json(`${first.server.url}/api/schedules`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ cron: '*/2 * * * * *', message: 'tick' }),
      });
      id = made.id;
      const fired = await until(
        async () => (await json(`${first.server.url}/api/runs?scheduleId=${id}`)).runs as Json[],
        (runs) => runs.length >= 1,
      );
      assert.ok(fired.length >= 1);
    } finally {
      await first.server.close();
    }
    const stoppedAt = Date.now();
    await sleep(5_000); // two slots or more pass with no server
    const second = await startTestServer(dataDir, env);
    try {
      const catchUps = async () =>
        ((await json(`${second.server.url}/api/runs?scheduleId=${id}`)).runs as Json[]).filter(
          (run) => run.catchUp === true,
        );
      const caught = await until(catchUps, (runs) => runs.length >= 1);
      assert.equal(caught.length, 1);
      assert.ok(Date.parse(caught[0].scheduledFor) > stoppedAt);
      // Later slots fire as usual; none of them is another catch-up.
      const later = (runs: Json[]) =>
        runs.some((run) => run.catchUp !== true && Date.parse(run.createdAt) > stoppedAt);
      const all = await until(
        async () => (await json(`${second.server.url}/api/runs?scheduleId=${id}`)).runs as Json[],
        later,
      );
      assert.ok(later(all));
      assert.equal((await catchUps()).length, 1);
    } finally {
      await second.server.close();
    }
  });
});
