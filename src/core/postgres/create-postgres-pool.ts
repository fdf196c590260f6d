import type pg from 'pg';
import { describePostgresTarget } from './classify-postgres-error.ts';

/** How Yeoul connects to PostgreSQL. Every duration is in milliseconds. */
export interface PostgresPoolOptions {
  /** A `postgres://user:password@host:port/database` URL (`DATABASE_URL`). */
  url: string;
  /** Connections this process opens at most (default 10). */
  maxConnections?: number;
  /** A statement running longer is cancelled by the server (default 30 000). */
  statementTimeoutMs?: number;
  /** Opening a connection longer fails as unreachable (default 5 000). */
  connectionTimeoutMs?: number;
  /** An idle connection is closed after this (default 30 000). */
  idleTimeoutMs?: number;
  /** Shown in `pg_stat_activity` (default `yeoul`; the URL's own `application_name` wins). */
  applicationName?: string;
  /**
   * Called when a connection breaks, idle in the pool or checked out (the server restarted or
   * ended it): the work using it fails with its own error, the pool drops it and opens another.
   */
  onConnectionError?: (error: Error) => void;
}

/** A pool of PostgreSQL connections, as `createPostgresPool` makes it. */
export type PostgresPool = pg.Pool;

/** A connection checked out of a pool (inside a transaction, say). */
export type PostgresClient = pg.PoolClient;

/**
 * A connection pool for `DATABASE_URL` with Yeoul's limits: bounded size, a statement
 * timeout, a client-side read timeout a little longer (so a vanished server cannot hang a
 * request), TCP keep-alive, JIT off, and no transaction left idle for more than a minute. A
 * connection that breaks, idle or checked out, never crashes the process.
 * @example
 * const pool = await createPostgresPool({ url: 'postgres://yeoul@127.0.0.1:5432/yeoul' });
 */
export async function createPostgresPool(options: PostgresPoolOptions): Promise<PostgresPool> {
  // Loaded on first use, so processes on the embedded SQLite store never pay for the driver.
  const { default: pg } = await import('pg');
  const statementTimeout = options.statementTimeoutMs ?? 30_000;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    idleTimeoutMillis: options.idleTimeoutMs ?? 30_000,
    statement_timeout: statementTimeout,
    query_timeout: statementTimeout + 5_000,
    idle_in_transaction_session_timeout: 60_000,
    application_name: options.applicationName ?? 'yeoul',
    // Yeoul's statements are short; JIT compiling one costs more than it saves (tens of ms).
    // Its locking (the session line, appends) is written for READ COMMITTED: pinned, whatever
    // default the database was given.
    options: '-c jit=off -c default_transaction_isolation=read\\ committed',
    keepAlive: true,
  });
  const broke = (error: Error) => options.onConnectionError?.(error);
  pool.on('error', broke);
  // A checked-out client whose connection ends emits 'error' on itself, where the pool no
  // longer listens: without a listener of its own, that event would end the process.
  pool.on('connect', (client) => client.on('error', broke));
  return pool;
}

/** `host:port/database` of a pool, for messages (never credentials). */
export function poolTarget(pool: PostgresPool): string {
  const settings = pool.options as { connectionString?: string; host?: string; port?: number };
  if (settings.connectionString) return describePostgresTarget(settings.connectionString);
  return `${settings.host ?? 'localhost'}:${settings.port ?? 5432}`;
}
