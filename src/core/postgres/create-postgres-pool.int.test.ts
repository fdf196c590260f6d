import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type PostgresServer, startPostgresServer } from '../../testing/internal/index.ts';
import { StoreUnavailableError } from '../errors/store-unavailable-error.ts';
import { createPostgresPool } from './create-postgres-pool.ts';
import { queryPostgres, withTransaction } from './with-transaction.ts';

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function elapsed(work: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  try {
    await work();
    return { error: undefined, ms: performance.now() - started };
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
}

let server: PostgresServer;
before(async () => {
  server = await startPostgresServer();
});
after(() => server.stop());

describe('createPostgresPool', () => {
  it('runs at READ COMMITTED without JIT whatever the database defaults to', async () => {
    const url = await server.createDatabase();
    const admin = await createPostgresPool({ url });
    const database = new URL(url).pathname.slice(1);
    await admin.query(
      `ALTER DATABASE "${database}" SET default_transaction_isolation = 'repeatable read'`,
    );
    await admin.query(`ALTER DATABASE "${database}" SET jit = on`);
    await admin.end();
    const pool = await createPostgresPool({ url });
    const { rows } = await queryPostgres<{ isolation: string; jit: string }>(
      pool,
      "SELECT current_setting('transaction_isolation') AS isolation, current_setting('jit') AS jit",
    );
    await pool.end();
    assert.deepEqual(rows, [{ isolation: 'read committed', jit: 'off' }]);
  });

  it('survives a checked-out connection the server ends, telling onConnectionError', async () => {
    const broke: Error[] = [];
    const pool = await createPostgresPool({
      url: server.url,
      onConnectionError: (error) => broke.push(error),
    });
    const held = await pool.connect();
    const { rows } = await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const admin = await createPostgresPool({ url: server.url });
    // Ended while checked out and idle: the client itself emits 'error', where the pool does
    // not listen. Without a listener of its own, the process would end here.
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
    await admin.end();
    for (let waited = 0; broke.length === 0 && waited < 5000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.match(String(broke[0]?.message), /terminating connection/);
    const { error } = await elapsed(() => held.query('SELECT 1'));
    assert.ok(error instanceof Error, 'the broken connection refuses further work');
    held.release(error as Error);
    const again = await queryPostgres<{ one: number }>(pool, 'SELECT 1 AS one');
    assert.deepEqual(again.rows, [{ one: 1 }]);
    await pool.end();
  });

  it('takes values given as a function once a connection is in hand', async () => {
    const pool = await createPostgresPool({ url: server.url, maxConnections: 1 });
    const held = await pool.connect();
    let taken = 0;
    const query = queryPostgres<{ n: number }>(pool, 'SELECT $1::int AS n', () => [++taken]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(taken, 0, 'taken while waiting for the only connection');
    held.release();
    assert.deepEqual((await query).rows, [{ n: 1 }]);
    await pool.end();
  });

  it('answers store_unavailable within a few seconds when nothing listens', async () => {
    const pool = await createPostgresPool({
      url: `postgres://yeoul:secret@127.0.0.1:${await closedPort()}/yeoul`,
    });
    const { error, ms } = await elapsed(() => queryPostgres(pool, 'SELECT 1'));
    await pool.end();
    assert.ok(error instanceof StoreUnavailableError, String(error));
    assert.equal(error.code, 'store_unavailable');
    assert.match(error.message, /127\.0\.0\.1:\d+\/yeoul/);
    assert.doesNotMatch(error.message, /secret/);
    assert.ok(ms < 3000, `${ms} ms`);
  });

  it('answers store_unavailable after the connection timeout when the server never replies', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const pool = await createPostgresPool({
      url: `postgres://yeoul@127.0.0.1:${port}/yeoul`,
      connectionTimeoutMs: 1000,
    });
    const { error, ms } = await elapsed(() =>
      withTransaction(pool, (client) => client.query('SELECT 1')),
    );
    await pool.end();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
    assert.ok(error instanceof StoreUnavailableError, String(error));
    assert.ok(ms >= 900 && ms < 3000, `${ms} ms`);
  });

  it('serves again without a restart once a database that went away is back', async () => {
    const pool = await createPostgresPool({ url: server.url, connectionTimeoutMs: 2000 });
    const idleErrors: Error[] = [];
    pool.on('error', (error) => idleErrors.push(error));
    assert.equal((await queryPostgres(pool, 'SELECT 1 AS one')).rows[0]?.one, 1);
    await server.shutdown();
    const { error, ms } = await elapsed(() => queryPostgres(pool, 'SELECT 1'));
    assert.ok(error instanceof StoreUnavailableError, String(error));
    assert.ok(ms < 3000, `${ms} ms`);
    await server.start();
    assert.equal((await queryPostgres(pool, 'SELECT 2 AS two')).rows[0]?.two, 2);
    await pool.end();
  });

  it('leaves query errors alone and rolls their transaction back', async () => {
    const pool = await createPostgresPool({ url: server.url });
    await queryPostgres(pool, 'CREATE TABLE IF NOT EXISTS rollback_probe (x int PRIMARY KEY)');
    await assert.rejects(
      withTransaction(pool, async (client) => {
        await client.query('INSERT INTO rollback_probe VALUES (1)');
        await client.query('INSERT INTO rollback_probe VALUES (1)');
      }),
      { code: '23505' },
    );
    assert.equal(
      (await queryPostgres(pool, 'SELECT count(*)::int AS n FROM rollback_probe')).rows[0]?.n,
      0,
    );
    await pool.end();
  });
});
