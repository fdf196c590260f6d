import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  applyMigrations,
  createPostgresPool,
  type PostgresPool,
  StoreUnavailableError,
} from '../../core/index.ts';
import {
  type PostgresServer,
  startPostgresServer,
  waitUntil,
} from '../../testing/internal/index.ts';
import { PostgresNotifications } from '../scale-out/postgres-notifications.ts';
import { serverMigrations } from '../scale-out/server-migrations.ts';
import { PostgresSessionQueue } from './postgres-session-queue.ts';

let server: PostgresServer;
let pool: PostgresPool;
const opened: Array<{ close(): Promise<void> }> = [];

before(async () => {
  server = await startPostgresServer();
  pool = await createPostgresPool({ url: server.url });
  await applyMigrations(pool, serverMigrations);
});
after(async () => {
  for (const item of opened.reverse()) await item.close();
  await pool.end();
  await server.stop();
});

/** One instance's queue on the shared database; `dead` lists instances it takes for dead. */
async function instanceQueue(
  instanceId: string,
  options: {
    limit?: number;
    dead?: Set<string>;
    closeRun?: (id: string) => Promise<unknown>;
    pollMs?: number;
  } = {},
) {
  const notifications = new PostgresNotifications(pool);
  await notifications.start();
  const queue = new PostgresSessionQueue({
    pool,
    notifications,
    instanceId,
    isAlive: async (id) => !(options.dead ?? new Set()).has(id),
    limit: options.limit ?? 64,
    closeRun: options.closeRun ?? (async () => undefined),
    // Long enough that a test passing means the notification woke the waiter.
    pollMs: options.pollMs ?? 5000,
  });
  opened.push(notifications, queue);
  return queue;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Places (running or waiting) in a session's line. */
async function placesIn(sessionId: string): Promise<number> {
  const { rows } = await pool.query(
    'SELECT count(*)::int AS n FROM server_session_queue WHERE session_id = $1',
    [sessionId],
  );
  return rows[0]?.n as number;
}

describe('PostgresSessionQueue', () => {
  it('runs a session’s requests one at a time in arrival order across instances', async () => {
    const [first, second] = [await instanceQueue('one'), await instanceQueue('two')];
    const order: string[] = [];
    let running = 0;
    let openGate = () => {};
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    const request = async (queue: PostgresSessionQueue, name: string) => {
      const leave = await queue.enter('ordered', performance.now());
      running += 1;
      assert.equal(running, 1, 'two requests of one session ran at once');
      order.push(name);
      // The first holds the line until every request has its place, whatever order the places
      // reached the database in.
      if (name === 'r0') await gate;
      await sleep(30);
      running -= 1;
      leave();
    };
    const requests: Array<Promise<void>> = [];
    for (let index = 0; index < 8; index += 1) {
      requests.push(request(index % 2 === 0 ? first : second, `r${index}`));
      await sleep(25);
    }
    await waitUntil(async () => (await placesIn('ordered')) === 8, 'every place taken');
    const started = performance.now();
    openGate();
    await Promise.all(requests);
    assert.deepEqual(order, ['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7']);
    assert.ok(performance.now() - started < 4000, 'waiters were woken by notifications');
  });

  it('orders waiting requests by when they reached their instance, never ahead of the running one', async () => {
    const [first, second] = [await instanceQueue('early'), await instanceQueue('late')];
    const order: string[] = [];
    const now = performance.now();
    // Reached its instance 300 ms ago, but its place reaches the database first: it runs.
    const running = await first.enter('by-arrival', now - 300);
    const request = async (queue: PostgresSessionQueue, name: string, arrivedAt: number) => {
      const leave = await queue.enter('by-arrival', arrivedAt);
      order.push(name);
      leave();
    };
    // Places taken in the order late, early; arrivals were early (100 ms ago), then late.
    const late = request(second, 'late', now - 20);
    await sleep(50);
    const early = request(first, 'early', now - 100);
    // One that arrived before the running request still waits behind it.
    const earliest = request(second, 'earliest', now - 500);
    await sleep(100);
    assert.deepEqual(order, [], 'a request ran while the first one held the line');
    running();
    await Promise.all([late, early, earliest]);
    assert.deepEqual(order, ['earliest', 'early', 'late']);
  });

  it('lets different sessions run at the same time', async () => {
    const queue = await instanceQueue('parallel');
    const [one, two] = await Promise.all([queue.enter('p1'), queue.enter('p2')]);
    assert.equal(queue.active, 2);
    one();
    two();
  });

  it('counts the 409 bound across instances', async () => {
    const [first, second] = [
      await instanceQueue('bound-1', { limit: 1 }),
      await instanceQueue('bound-2', { limit: 1 }),
    ];
    const running = await first.enter('bounded');
    const waiting = second.enter('bounded');
    await waitUntil(async () => (await placesIn('bounded')) === 2, 'two places taken');
    await assert.rejects(first.enter('bounded'), { status: 409, code: 'session_busy' });
    await assert.rejects(second.enter('bounded'), { status: 409, code: 'session_busy' });
    running();
    (await waiting)();
  });

  it('removes the rows of a dead instance so the line moves on', async () => {
    await pool.query(
      "INSERT INTO server_session_queue (session_id, instance_id) VALUES ('stuck', 'crashed')",
    );
    const queue = await instanceQueue('survivor', { dead: new Set(['crashed']) });
    const leave = await queue.enter('stuck');
    leave();
    const { rows } = await pool.query(
      "SELECT count(*)::int AS n FROM server_session_queue WHERE instance_id = 'crashed'",
    );
    assert.equal(rows[0]?.n, 0);
  });

  it('keeps the line of a run that failed with the store until its end is stored', async () => {
    const happened: string[] = [];
    let attempts = 0;
    const queue = await instanceQueue('flaky', {
      pollMs: 200,
      closeRun: async (sessionId) => {
        attempts += 1;
        if (attempts === 1) throw new StoreUnavailableError({ store: 'postgres', reason: 'away' });
        happened.push(`closed ${sessionId}`);
      },
    });
    const other = await instanceQueue('patient');
    const leave = await queue.enter('failing');
    leave(new StoreUnavailableError({ store: 'postgres', reason: 'connection refused' }));
    // The first try to close the run fails: the next request waits for the retry (every poll).
    const next = other.enter('failing');
    (await next)();
    happened.push('entered');
    assert.equal(attempts, 2);
    assert.deepEqual(happened, ['closed failing', 'entered']);
  });
});
