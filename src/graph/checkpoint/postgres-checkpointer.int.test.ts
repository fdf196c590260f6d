import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { applyMigrations, createPostgresPool, type PostgresPool } from '../../core/index.ts';
import { type PostgresServer, startPostgresServer } from '../../testing/internal/index.ts';
import { checkpointerConformance, entryFor } from './checkpointer-conformance.ts';
import { checkpointMigrations } from './postgres-checkpoint-migrations.ts';
import { PostgresCheckpointer } from './postgres-checkpointer.ts';

let server: PostgresServer;
before(async () => {
  server = await startPostgresServer();
});
after(() => server.stop());

/** A fresh database with the graph schema; returns its URL. */
async function migratedDatabase(): Promise<string> {
  const url = await server.createDatabase();
  const pool = await createPostgresPool({ url });
  await applyMigrations(pool, checkpointMigrations);
  await pool.end();
  return url;
}

let current = '';
checkpointerConformance(
  'postgres',
  async () => {
    current = await migratedDatabase();
    return PostgresCheckpointer.connect({ url: current });
  },
  () => PostgresCheckpointer.connect({ url: current }),
);

describe('postgres checkpointer', () => {
  let pool: PostgresPool;
  before(async () => {
    pool = await createPostgresPool({ url: await migratedDatabase() });
  });
  after(() => pool.end());

  it('commits the steps of concurrent runs together: one statement for appends of one tick', async () => {
    const checkpointer = await PostgresCheckpointer.open(pool);
    const sent: string[] = [];
    const query = pool.query.bind(pool);
    pool.query = ((...args: Parameters<typeof query>) => {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
      if (text.includes('yeoul_graph_append')) sent.push(text);
      return query(...args);
    }) as typeof pool.query;
    try {
      await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          checkpointer.append(entryFor(`group-${index}`, 1)),
        ),
      );
    } finally {
      pool.query = query;
    }
    assert.equal(sent.length, 1);
    for (let index = 0; index < 20; index += 1) {
      assert.equal((await checkpointer.read(`group-${index}`)).entries.length, 1);
    }
    await checkpointer.close();
  });

  it('fails only the conflicting entry of a group', async () => {
    const checkpointer = await PostgresCheckpointer.open(pool);
    await checkpointer.append(entryFor('taken', 1));
    const results = await Promise.allSettled([
      checkpointer.append(entryFor('taken', 1)),
      checkpointer.append(entryFor('free', 1)),
      checkpointer.append(entryFor('skipping', 2)),
    ]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['rejected', 'fulfilled', 'rejected'],
    );
    assert.equal((results[0] as PromiseRejectedResult).reason.code, 'checkpoint_conflict');
    assert.equal((await checkpointer.read('free')).entries.length, 1);
    await checkpointer.close();
  });

  it('stores a run’s consecutive entries of one group in one row, appended whole or not at all', async () => {
    const checkpointer = await PostgresCheckpointer.open(pool);
    const rowsOf = async (threadId: string) =>
      (
        await pool.query<{ first_seq: number; last_seq: number; status: string }>(
          'SELECT first_seq, last_seq, status FROM graph_segments WHERE thread_id = $1 ORDER BY first_seq',
          [threadId],
        )
      ).rows.map((row) => `${row.first_seq}-${row.last_seq} ${row.status}`);
    const running = async () =>
      (await checkpointer.listThreads({ status: 'running' }))
        .map((info) => info.threadId)
        .filter((threadId) => threadId.startsWith('rows-'));
    // Interleaved threads, as a group of concurrent async runs hands them over.
    const first = [
      entryFor('rows-a', 1),
      entryFor('rows-a', 2),
      entryFor('rows-b', 1),
      entryFor('rows-a', 3, { status: 'done', next: null }),
      entryFor('rows-b', 2),
      entryFor('rows-b', 3, { runId: 'run-2' }),
    ];
    await Promise.all(first.map((entry) => checkpointer.append(entry)));
    assert.deepEqual(await rowsOf('rows-a'), ['1-3 done']);
    // rows-b's entries 1 and 2 are one row though rows-a's came between; run-2's starts another.
    assert.deepEqual(await rowsOf('rows-b'), ['1-2 running', '3-3 running']);
    assert.deepEqual(
      (await checkpointer.read('rows-a')).entries,
      first.filter((entry) => entry.threadId === 'rows-a'),
    );
    assert.deepEqual((await checkpointer.read('rows-b', 1)).entries, first.slice(4));
    assert.deepEqual(await running(), ['rows-b']);
    // A run started and finished in one row leaves the set of running threads alone.
    await Promise.all(
      [1, 2, 3].map((seq) =>
        checkpointer.append(
          entryFor('rows-c', seq, seq === 3 ? { status: 'done', next: null } : {}),
        ),
      ),
    );
    assert.deepEqual(await rowsOf('rows-c'), ['1-3 done']);
    assert.deepEqual(await running(), ['rows-b']);
    // Another writer took seq 4 of rows-b: the whole row 4–6 of run-3 fails, and nothing of it stays.
    await checkpointer.append(entryFor('rows-b', 4, { runId: 'other' }));
    const results = await Promise.allSettled(
      [4, 5, 6].map((seq) => checkpointer.append(entryFor('rows-b', seq, { runId: 'run-3' }))),
    );
    assert.deepEqual(
      results.map((result) => result.status),
      ['rejected', 'rejected', 'rejected'],
    );
    assert.equal((results[0] as PromiseRejectedResult).reason.code, 'checkpoint_conflict');
    assert.deepEqual(await rowsOf('rows-b'), ['1-2 running', '3-3 running', '4-4 running']);
    // Rows of several entries seal like any others, and read back exactly.
    const long = Array.from({ length: 240 }, (_, index) =>
      entryFor('rows-long', index + 1, {
        update: { messages: [{ id: `m${index}`, content: `메시지 ${index} `.repeat(10) }] },
      }),
    );
    for (let index = 0; index < long.length; index += 6) {
      await Promise.all(long.slice(index, index + 6).map((entry) => checkpointer.append(entry)));
    }
    const sealed = await pool.query<{ sealed: number; rows: number }>(
      "SELECT count(*) FILTER (WHERE sealed)::int AS sealed, count(*)::int AS rows FROM graph_segments WHERE thread_id = 'rows-long'",
    );
    assert.ok((sealed.rows[0]?.sealed ?? 0) >= 2, 'sealed');
    assert.deepEqual((await checkpointer.read('rows-long')).entries, long);
    for (const after of [0, 5, 6, 7, 100, 239, 240]) {
      assert.deepEqual((await checkpointer.read('rows-long', after)).entries, long.slice(after));
    }
    await checkpointer.close();
  });

  it('lets exactly one of two instances write a step both race for', async () => {
    const [first, second] = [
      await PostgresCheckpointer.open(pool),
      await PostgresCheckpointer.open(pool),
    ];
    await first.append(entryFor('raced', 1));
    const results = await Promise.allSettled([
      first.append(entryFor('raced', 2, { node: 'first' })),
      second.append(entryFor('raced', 2, { node: 'second' })),
    ]);
    assert.deepEqual(results.map((result) => result.status).sort(), ['fulfilled', 'rejected']);
    const stored = (await second.read('raced', 1)).entries;
    assert.equal(stored.length, 1);
    // A new thread's first step too (the shorter statement for a thread with no rows).
    const firsts = await Promise.allSettled([
      first.append(entryFor('raced-new', 1, { node: 'first' })),
      second.append(entryFor('raced-new', 1, { node: 'second' })),
    ]);
    assert.deepEqual(firsts.map((result) => result.status).sort(), ['fulfilled', 'rejected']);
    const winner = firsts[0]?.status === 'fulfilled' ? 'first' : 'second';
    assert.deepEqual(
      (await first.read('raced-new')).entries.map((entry) => [entry.seq, entry.node]),
      [[1, winner]],
    );
    await Promise.all([first.close(), second.close()]);
  });

  it('seals long logs into compressed segments and reads any stretch of them exactly', async () => {
    const checkpointer = await PostgresCheckpointer.open(pool);
    const entries = Array.from({ length: 300 }, (_, index) =>
      entryFor('long', index + 1, {
        update: { messages: [{ id: `m${index}`, content: `메시지 ${index} `.repeat(10) }] },
      }),
    );
    for (const entry of entries) await checkpointer.append(entry);
    const { rows } = await pool.query(
      "SELECT count(*)::int AS segments, count(*) FILTER (WHERE sealed)::int AS sealed FROM graph_segments WHERE thread_id = 'long'",
    );
    assert.ok(rows[0]?.sealed >= 3, `${rows[0]?.sealed} sealed segments`);
    assert.ok(rows[0]?.segments < 150, `${rows[0]?.segments} rows for 300 entries`);
    assert.deepEqual((await checkpointer.read('long')).entries, entries);
    for (const after of [0, 1, 57, 123, 250, 299, 300]) {
      assert.deepEqual((await checkpointer.read('long', after)).entries, entries.slice(after));
    }
    await checkpointer.compact('long', { seq: 150, values: { at: 150 }, createdAt: 1 });
    const log = await checkpointer.read('long');
    assert.equal(log.base?.seq, 150);
    assert.deepEqual(log.entries, entries.slice(150));
    await checkpointer.append(entryFor('long', 301));
    assert.equal((await checkpointer.read('long', 300)).entries[0]?.seq, 301);
    await checkpointer.close();
  });

  it('lists running threads from the set its triggers keep, through sealing, compaction and deletion', async () => {
    const checkpointer = await PostgresCheckpointer.open(pool);
    const running = async () =>
      (await checkpointer.listThreads({ status: 'running' }))
        .map((info) => info.threadId)
        .filter((threadId) => threadId.startsWith('set-'));
    const tracked = async () =>
      (
        await pool.query<{ thread_id: string }>(
          "SELECT thread_id FROM graph_running_threads WHERE thread_id LIKE 'set-%' ORDER BY 1",
        )
      ).rows.map((row) => row.thread_id);
    const long = (seq: number, fields = {}) =>
      entryFor('set-long', seq, {
        update: { messages: [{ id: `m${seq}`, content: `메시지 ${seq} `.repeat(40) }] },
        createdAt: seq,
        ...fields,
      });
    for (let seq = 1; seq <= 60; seq += 1) await checkpointer.append(long(seq));
    await checkpointer.append(entryFor('set-idle', 1, { createdAt: 1 }));
    await checkpointer.append(
      entryFor('set-idle', 2, { status: 'done', next: null, createdAt: 2 }),
    );
    await checkpointer.append(entryFor('set-gone', 1));
    const { rows } = await pool.query(
      "SELECT count(*) FILTER (WHERE sealed)::int AS sealed FROM graph_segments WHERE thread_id = 'set-long'",
    );
    assert.ok(rows[0]?.sealed >= 2, 'the long thread was sealed while running');
    assert.deepEqual(await running(), ['set-gone', 'set-long'], 'newest first');
    assert.deepEqual(await tracked(), ['set-gone', 'set-long']);
    await checkpointer.deleteThread('set-gone');
    await checkpointer.append(long(61, { status: 'done', next: null }));
    assert.deepEqual(await running(), []);
    assert.deepEqual(await tracked(), [], 'finished and deleted threads leave the set');
    await checkpointer.compact('set-long', { seq: 30, values: {}, createdAt: 1 });
    assert.deepEqual(await tracked(), [], 'a compaction’s base does not count as the newest row');
    await checkpointer.append(long(62));
    assert.deepEqual(await running(), ['set-long']);
    await checkpointer.close();
  });

  it('fails with store_unavailable while the database is away, and works again once it is back', async () => {
    const url = await migratedDatabase();
    const checkpointer = await PostgresCheckpointer.connect({ url, connectionTimeoutMs: 2000 });
    await checkpointer.append(entryFor('outage', 1));
    await server.shutdown();
    try {
      await assert.rejects(checkpointer.append(entryFor('outage', 2)), {
        code: 'store_unavailable',
      });
      await assert.rejects(checkpointer.read('outage'), { code: 'store_unavailable' });
    } finally {
      await server.start();
    }
    await checkpointer.append(entryFor('outage', 2));
    assert.equal((await checkpointer.read('outage')).entries.length, 2);
    await checkpointer.close();
  });
});

describe('postgres checkpointer heartbeats', () => {
  it('takes no stale instance for dead while its own heartbeat is late, nor for a lease after', async () => {
    const url = await migratedDatabase();
    const leaseMs = 600;
    const checkpointer = await PostgresCheckpointer.connect({ url }, { leaseMs });
    try {
      // An instance on another machine whose last heartbeat is older than the lease.
      await checkpointer.pool.query(
        `INSERT INTO graph_instances (instance_id, heartbeat_at, host, pid)
         VALUES ('stale-peer', now() - interval '1 minute', 'another-host', 1)`,
      );
      assert.equal(await checkpointer.isAlive('stale-peer'), false);
      // This process stalls (a blocked event loop, a pool that made every statement wait):
      // its own beats are late, so the peer's stale heartbeat proves nothing.
      const stalled = Date.now();
      while (Date.now() - stalled < leaseMs) {
        // Busy: no timer fires.
      }
      assert.equal(await checkpointer.isAlive('stale-peer'), true);
      // Once its heartbeat went on for a lease, the peer counts as dead again.
      await new Promise((resolve) => setTimeout(resolve, leaseMs * 2));
      assert.equal(await checkpointer.isAlive('stale-peer'), false);
    } finally {
      await checkpointer.close();
    }
  });
});
