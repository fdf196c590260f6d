import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import {
  type ChatCompletionRequest,
  echoCompletion,
  type FakeOpenAiServer,
  type FakeOpenSearch,
  lastUserText,
  type PostgresServer,
  readEvents,
  runYeoul,
  type ServeProcess,
  startFakeOpenAiServer,
  startFakeOpenSearch,
  startPostgresServer,
  startServeProcess,
  waitUntil,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const leaseMs = 3000;
const root = mkdtempSync(join(tmpdir(), 'yeoul-scale-out-'));

/** The line test's turns ("turn N") are answered in 400 ms, longer than the gap between them. */
const fastDelay = (request: ChatCompletionRequest) =>
  lastUserText(request).startsWith('turn ') ? 400 : 150;

let database: PostgresServer;
let fast: FakeOpenAiServer;
let slow: FakeOpenAiServer;
let databaseUrl: string;
const running = new Set<ServeProcess>();

/**
 * An instance on the shared database (or the one `env` names); `slow` instances wait 1.5 s
 * for each model answer.
 */
async function instance(
  name: string,
  speed: 'fast' | 'slow' = 'fast',
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  const model = speed === 'fast' ? fast : slow;
  const server = await startServeProcess(
    join(root, name),
    {
      DATABASE_URL: databaseUrl,
      YEOUL_MODEL: 'compat:echo',
      YEOUL_COMPAT_BASE_URL: model.baseUrl,
      YEOUL_LEASE_MS: String(leaseMs),
      ...env,
    },
    ['--no-sample'],
  );
  running.add(server);
  void server.exited.then(() => running.delete(server));
  return server;
}

async function post(server: ServeProcess, path: string, body: unknown) {
  const started = performance.now();
  const response = await fetch(server.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : undefined) as Json,
    ms: performance.now() - started,
  };
}

async function get(server: ServeProcess, path: string) {
  const response = await fetch(server.url + path);
  return { status: response.status, body: (await response.json()) as Json };
}

/** The user and assistant messages of a session's history, in stored order, with their run. */
async function turnsOf(server: ServeProcess, sessionId: string) {
  const { body } = await get(server, `/api/sessions/${sessionId}/history`);
  const messages: Array<{ runId: string; role: string; content: string }> = [];
  for (const step of body.steps as Json[]) {
    for (const message of (step.update?.messages ?? []) as Json[]) {
      if (message.role === 'user' || message.role === 'assistant') {
        messages.push({ runId: step.runId, role: message.role, content: message.content });
      }
    }
  }
  return messages;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the session's run shows as running (seen through `server`). */
async function runningOn(server: ServeProcess, sessionId: string): Promise<void> {
  await waitUntil(
    async () => (await get(server, `/api/sessions/${sessionId}`)).body?.status === 'running',
    `session ${sessionId} running`,
  );
}

before(async () => {
  database = await startPostgresServer();
  databaseUrl = await database.createDatabase();
  fast = await startFakeOpenAiServer(echoCompletion, { delayMs: fastDelay, keepRequests: false });
  slow = await startFakeOpenAiServer(echoCompletion, { delayMs: 1500, keepRequests: false });
});

after(async () => {
  await Promise.all([...running].map((server) => server.kill()));
  await fast.close();
  await slow.close();
  await database.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('several yeoul serve instances on one PostgreSQL', () => {
  let a: ServeProcess;
  let b: ServeProcess;
  let c: ServeProcess;

  before(async () => {
    // Started together: the migrations are applied once, by whichever instance gets there first.
    [a, b, c] = await Promise.all([instance('a'), instance('b'), instance('c', 'slow')]);
  });

  it('reports the PostgreSQL store and a different instance id on each instance', async () => {
    const statuses = await Promise.all([a, b, c].map((server) => get(server, '/api/agent/status')));
    for (const { body } of statuses) assert.equal(body.store.backend, 'postgres');
    const ids = new Set(statuses.map(({ body }) => body.store.instanceId));
    assert.equal(ids.size, 3);
  });

  it('keeps 30 concurrent turns on one session through two instances, in arrival order, none interleaved', async () => {
    // Warm both instances up (several connections each, compiled code), so that each takes a
    // request in as it comes and arrival follows sending.
    await Promise.all(
      [a, b].flatMap((server) =>
        [1, 2, 3].map((n) =>
          post(server, '/api/agent/invoke', {
            message: 'hi',
            sessionId: `warm-${n}-${server.url}`,
          }),
        ),
      ),
    );
    const sent: string[] = [];
    const replies: Array<Promise<Awaited<ReturnType<typeof post>>>> = [];
    for (let index = 0; index < 30; index += 1) {
      const message = `turn ${index + 1}`;
      sent.push(message);
      replies.push(
        post(index % 2 === 0 ? a : b, '/api/agent/invoke', { message, sessionId: 'many' }),
      );
      // Each turn takes longer than this, so the line grows; the gap fixes the arrival order
      // (an instance short of CPU may take a request in well after it was sent).
      await sleep(200);
    }
    const results = await Promise.all(replies);
    assert.deepEqual(
      results.map((result) => result.status),
      sent.map(() => 200),
    );
    results.forEach((result, index) => {
      assert.equal(result.body.response, `echo: ${sent[index]}`);
    });
    const messages = await turnsOf(b, 'many');
    assert.deepEqual(
      messages.filter((message) => message.role === 'user').map((message) => message.content),
      sent,
    );
    // Each run's question and answer sit together, and every run's steps are contiguous.
    for (let index = 0; index < messages.length; index += 2) {
      const [question, answer] = [messages[index], messages[index + 1]];
      assert.equal(answer?.role, 'assistant');
      assert.equal(answer?.content, `echo: ${question?.content}`);
      assert.equal(answer?.runId, question?.runId);
    }
    const { body } = await get(a, '/api/sessions/many/history');
    const runs = (body.steps as Json[]).map((step) => step.runId as string);
    const order = runs.filter((runId, index) => runs[index - 1] !== runId);
    assert.equal(new Set(order).size, order.length, 'a run whose steps are split by another');
  });

  it('finds a document ingested through one instance through another', async () => {
    const added = await post(a, '/api/documents', {
      documents: [
        { id: 'shared-policy', title: '출장 규정', text: '출장비는 하루 12만 원까지 정산합니다.' },
      ],
    });
    assert.equal(added.status, 201);
    const found = await post(b, '/api/search', { query: '출장비 정산', k: 1 });
    assert.equal(found.body.hits[0]?.documentId, 'shared-policy');
    const listed = await get(c, '/api/documents');
    assert.ok(listed.body.documents.some((document: Json) => document.id === 'shared-policy'));
  });

  it('lets a client join from another instance a stream that runs elsewhere, with the same ids', async () => {
    const response = await fetch(`${c.url}/api/agent/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'stream me', sessionId: 'joined' }),
    });
    // Read the first event from the instance that runs it, then drop the connection.
    const first = await readEvents(response, () => true);
    const lastEventId = first[0]?.id as string;
    assert.match(lastEventId, /^[\w-]+:1$/);
    const joined = await fetch(`${a.url}/api/sessions/joined/stream`, {
      headers: { 'last-event-id': lastEventId },
    });
    assert.equal(joined.status, 200);
    const rest = await readEvents(joined);
    const key = lastEventId.slice(0, lastEventId.lastIndexOf(':'));
    assert.deepEqual(
      rest.map((event) => event.id),
      rest.map((_event, index) => `${key}:${index + 2}`),
    );
    const done = rest.at(-1);
    assert.equal(done?.event, 'done');
    assert.equal((done?.data as Json)?.response, 'echo: stream me');
    assert.ok(rest.some((event) => event.event === 'token'));
  });

  it('answers 404 no_active_run to a joiner when no run is going anywhere', async () => {
    const response = await fetch(`${b.url}/api/sessions/many/stream`);
    assert.equal(response.status, 404);
    assert.equal(((await response.json()) as Json).error.code, 'no_active_run');
  });

  it('cancels from another instance a run that instance is not running', async () => {
    const invoked = post(c, '/api/agent/invoke', { message: 'cancel me', sessionId: 'cancelled' });
    await runningOn(a, 'cancelled');
    const cancel = await post(a, '/api/sessions/cancelled/cancel', undefined);
    assert.equal(cancel.status, 202);
    const result = await invoked;
    assert.equal(result.status, 200);
    assert.equal(result.body.status, 'cancelled');
    assert.ok(result.ms < 3000, `the run went on for ${result.ms} ms`);
  });

  it('answers through another instance within the lease when one is killed mid-run, and closes a run left alone', async () => {
    const doomed = post(c, '/api/agent/invoke', {
      message: 'never answered',
      sessionId: 'crash',
    }).catch(() => undefined);
    void post(c, '/api/agent/invoke', { message: 'left alone', sessionId: 'orphan' }).catch(
      () => undefined,
    );
    await runningOn(a, 'crash');
    await runningOn(a, 'orphan');
    await c.kill();
    await doomed;
    const started = performance.now();
    const taken = await post(a, '/api/agent/invoke', {
      message: 'after the crash',
      sessionId: 'crash',
    });
    assert.equal(taken.status, 200);
    assert.equal(taken.body.response, 'echo: after the crash');
    assert.ok(performance.now() - started < leaseMs, 'answered within the lease');
    const history = await get(a, '/api/sessions/crash/history');
    const statuses = (history.body.steps as Json[]).map((step) => step.status);
    assert.ok(statuses.includes('failed'), 'the killed run was closed as failed');
    // Nobody asks about the other session: the sweeper closes its run all the same.
    const deadline = Date.now() + 3 * leaseMs;
    let status = 'running';
    while (status === 'running' && Date.now() < deadline) {
      await sleep(250);
      status = (await get(b, '/api/sessions/orphan')).body.status;
    }
    assert.equal(status, 'failed');
  });

  it('keeps everything when every instance restarts', async () => {
    await Promise.all([a.stop(), b.stop()]);
    [a, b] = await Promise.all([instance('a2'), instance('b2')]);
    const messages = await turnsOf(a, 'many');
    assert.equal(messages.filter((message) => message.role === 'user').length, 30);
    const found = await post(b, '/api/search', { query: '출장비 정산', k: 1 });
    assert.equal(found.body.hits[0]?.documentId, 'shared-policy');
    const more = await post(b, '/api/agent/invoke', { message: 'turn 31', sessionId: 'many' });
    assert.equal(more.body.response, 'echo: turn 31');
  });

  it('answers 503 store_unavailable while the database is away, loses no answered turn, and recovers without a restart', async () => {
    const answered: Array<{ sessionId: string; message: string }> = [];
    const failures: Array<{ status: number; code: string; ms: number }> = [];
    let stop = false;
    const worker = async (server: ServeProcess, name: string) => {
      for (let index = 0; !stop; index += 1) {
        const sessionId = `${name}-${index % 4}`;
        const message = `${name} says ${index}`;
        const result = await post(server, '/api/agent/invoke', { message, sessionId }).catch(
          () => ({
            status: 0,
            body: { error: { code: 'connection' } },
            ms: 0,
          }),
        );
        if (result.status === 200) answered.push({ sessionId, message });
        else
          failures.push({ status: result.status, code: result.body?.error?.code, ms: result.ms });
        if (result.status !== 200) await sleep(100);
      }
    };
    const load = [worker(a, 'a'), worker(a, 'a2'), worker(b, 'b'), worker(b, 'b2')];
    await sleep(1000);
    await database.shutdown();
    await sleep(2500);
    await database.start();
    // Every instance serves again within 30 s, without a restart.
    const deadline = Date.now() + 30_000;
    for (const server of [a, b]) {
      let ok = false;
      while (!ok && Date.now() < deadline) {
        const probe = await post(server, '/api/agent/invoke', {
          message: 'back?',
          sessionId: `probe-${server.url.length}`,
        });
        ok = probe.status === 200;
        if (!ok) await sleep(250);
      }
      assert.ok(ok, `${server.url} serves again`);
    }
    await sleep(1000);
    stop = true;
    await Promise.all(load);
    assert.ok(failures.length > 0, 'the outage was noticed');
    for (const failure of failures) {
      assert.equal(failure.status, 503, JSON.stringify(failure));
      assert.equal(failure.code, 'store_unavailable');
      assert.ok(failure.ms < 10_000, `a 503 took ${failure.ms} ms`);
    }
    // Every turn answered 200 is stored, and every session takes a new turn.
    const sessions = new Map<string, Set<string>>();
    for (const { sessionId, message } of answered) {
      sessions.set(sessionId, (sessions.get(sessionId) ?? new Set()).add(message));
    }
    for (const [sessionId, messages] of sessions) {
      const stored = new Set(
        (await turnsOf(a, sessionId)).filter((m) => m.role === 'user').map((m) => m.content),
      );
      for (const message of messages) assert.ok(stored.has(message), `${sessionId}: ${message}`);
      const next = await post(b, '/api/agent/invoke', { message: 'still here?', sessionId });
      assert.equal(next.status, 200, `${sessionId} takes a new turn: ${JSON.stringify(next.body)}`);
    }
  });
});

describe('several yeoul serve instances on one PostgreSQL with one OpenSearch cluster', () => {
  let cluster: FakeOpenSearch;
  let x: ServeProcess;
  let y: ServeProcess;

  before(async () => {
    cluster = await startFakeOpenSearch();
    const env = {
      DATABASE_URL: await database.createDatabase(),
      YEOUL_SEARCH_URL: `opensearch:${cluster.url}`,
    };
    [x, y] = await Promise.all([
      instance('search-x', 'fast', env),
      instance('search-y', 'fast', env),
    ]);
  });

  after(async () => {
    await Promise.all([x?.kill(), y?.kill()]);
    await cluster.close();
  });

  it('reports OpenSearch as the search index of every instance', async () => {
    for (const server of [x, y]) {
      const { body } = await get(server, '/api/agent/status');
      assert.equal(body.store.backend, 'postgres');
      assert.deepEqual(body.search, { backend: 'opensearch', state: 'ok' });
    }
  });

  it('finds through one instance what another added, replaced or deleted, via the shared cluster', async () => {
    const added = await post(x, '/api/documents', {
      documents: [
        { id: 'travel', title: '경비 규정', text: '출장비는 하루 12만 원까지 정산합니다.' },
      ],
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const found = await post(y, '/api/search', { query: '출장비 정산', k: 1 });
    assert.equal(found.body.hits[0]?.documentId, 'travel');
    const listed = await get(y, '/api/documents');
    const travel = listed.body.documents.find((document: Json) => document.id === 'travel');
    assert.ok(travel, 'listed through the other instance');
    assert.equal(travel.indexPending, undefined, 'the cluster confirmed the write');
    // The cluster holds the chunks, and the search went to it.
    assert.ok(
      cluster.requests.some(
        (request) => request.path.endsWith('/_bulk') && request.body.includes('출장비는 하루'),
      ),
      'the chunks were sent to the cluster',
    );
    assert.ok(
      cluster.requests.some((request) => request.path.endsWith('/_search')),
      'searches were sent to the cluster',
    );

    const replaced = await post(y, '/api/documents', {
      documents: [{ id: 'travel', title: '경비 규정', text: '식대는 한 끼 1만 원까지입니다.' }],
    });
    assert.equal(replaced.status, 201, JSON.stringify(replaced.body));
    const meals = await post(x, '/api/search', { query: '식대', k: 3 });
    assert.deepEqual(
      meals.body.hits.map((hit: Json) => hit.documentId),
      ['travel'],
    );
    assert.match(meals.body.hits[0].text, /식대는 한 끼/);
    assert.deepEqual((await post(x, '/api/search', { query: '출장비', k: 3 })).body.hits, []);

    const deleted = await fetch(`${y.url}/api/documents/travel`, { method: 'DELETE' });
    assert.ok(deleted.ok, `delete answered ${deleted.status}`);
    assert.deepEqual((await post(x, '/api/search', { query: '식대', k: 3 })).body.hits, []);
    const left = await get(x, '/api/documents');
    assert.ok(!left.body.documents.some((document: Json) => document.id === 'travel'));
  });
});

describe('a yeoul CLI run on the database of running instances', () => {
  let slowest: FakeOpenAiServer;
  let server: ServeProcess;
  let client: pg.Client;

  before(async () => {
    // Slow enough that the CLI, however long it takes to start, arrives during the server's run.
    slowest = await startFakeOpenAiServer(echoCompletion, { delayMs: 8000, keepRequests: false });
    server = await startServeProcess(
      join(root, 'line-server'),
      {
        DATABASE_URL: databaseUrl,
        YEOUL_MODEL: 'compat:echo',
        YEOUL_COMPAT_BASE_URL: slowest.baseUrl,
        YEOUL_LEASE_MS: String(leaseMs),
      },
      ['--no-sample'],
    );
    running.add(server);
    client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
  });

  after(async () => {
    await client.end();
    await server.kill();
    await slowest.close();
  });

  it('makes yeoul ask --session wait in the session’s line behind a server run, both turns in order', async () => {
    const sessionId = 'cli-line';
    let serverEnded = 0;
    let cliEnded = 0;
    const serverTurn = post(server, '/api/agent/invoke', {
      message: 'from the server',
      sessionId,
    }).then((result) => {
      serverEnded = performance.now();
      return result;
    });
    await sleep(300);
    const cliTurn = runYeoul(['ask', '--session', sessionId, 'from the terminal'], {
      env: {
        DATABASE_URL: databaseUrl,
        YEOUL_MODEL: 'compat:echo',
        YEOUL_COMPAT_BASE_URL: fast.baseUrl,
        YEOUL_DATA_DIR: join(root, 'line-cli'),
        YEOUL_LEASE_MS: String(leaseMs),
      },
      timeoutMs: 60_000,
    }).then((result) => {
      cliEnded = performance.now();
      return result;
    });
    // The CLI's place shows in the shared line, behind the server's run, while that run goes.
    let places = 0;
    while (serverEnded === 0 && places < 2) {
      const { rows } = await client.query(
        'SELECT count(*)::int AS places FROM server_session_queue WHERE session_id = $1',
        [sessionId],
      );
      places = rows[0]?.places ?? 0;
      if (places < 2) await sleep(100);
    }
    assert.equal(places, 2, 'the CLI waited in the line while the server’s run was going');
    const [answered, cli] = await Promise.all([serverTurn, cliTurn]);
    assert.equal(answered.status, 200, JSON.stringify(answered.body));
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(cli.stdout, /echo: from the terminal/);
    assert.ok(cliEnded > serverEnded, 'the CLI’s turn ended after the server’s');
    const turns = await turnsOf(server, sessionId);
    assert.deepEqual(
      turns.map((turn) => `${turn.role}: ${turn.content}`),
      [
        'user: from the server',
        'assistant: echo: from the server',
        'user: from the terminal',
        'assistant: echo: from the terminal',
      ],
    );
    const { body } = await get(server, `/api/sessions/${sessionId}/history`);
    const runs = (body.steps as Json[]).map((step) => step.runId as string);
    const order = runs.filter((runId, index) => runs[index - 1] !== runId);
    assert.equal(new Set(order).size, order.length, 'a run whose steps are split by another');
  });
});
