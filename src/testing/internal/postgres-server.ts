import { execFile } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { MissingProgramError } from './errors/missing-program-error.ts';
import { locatePostgresBinaries, type PostgresBinaries } from './postgres-binaries.ts';
import { launchPostgres, type RunningPostgres } from './postgres-process.ts';
import { missingProgramMessage, systemPrograms } from './system-programs.ts';

/** How a throwaway PostgreSQL server is started. */
export interface PostgresServerOptions {
  /** The folder of `initdb` and `postgres` (default: Debian's newest, else PATH). */
  binDirectory?: string;
  /** The database `url` points at, created at start (default `yeoul`). */
  database?: string;
  /** Extra server settings (`-c name=value`), e.g. `{ max_connections: '300' }`. */
  settings?: Record<string, string>;
}

/** A real PostgreSQL server in a temporary folder, on 127.0.0.1 and a free port. */
export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:PORT/<database>` (trust authentication, no password). */
  url: string;
  port: number;
  /** The temporary folder holding the data and the socket (removed by `stop`). */
  directory: string;
  /** Creates another empty database on this server and returns its URL. */
  createDatabase(): Promise<string>;
  /**
   * Stops the server but keeps its data, to play a database going away: `fast` (default, what
   * `pg_ctl stop -m fast` does) or `immediate` (`-m immediate`: a crash, recovered at start).
   */
  shutdown(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts a shut-down server again, on the same port, with its data. */
  start(): Promise<void>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

const run = promisify(execFile);

/** PostgreSQL's programs, or a one-line error naming the command that installs them. */
function findPostgresBinaries(directory?: string): PostgresBinaries {
  const located = locatePostgresBinaries(directory);
  if ('missing' in located)
    throw new MissingProgramError(
      missingProgramMessage(systemPrograms.postgresql, located.missing),
    );
  return located;
}

/**
 * Starts a fresh PostgreSQL server for tests and benchmarks: `initdb` in a temp folder, then
 * `postgres` listening on 127.0.0.1 only (socket folder inside the temp folder, fsync off),
 * as the `postgres` user when this process is root. Resolves once it accepts connections and
 * the database exists; rejects with what to install when PostgreSQL is missing.
 * @example
 * const server = await startPostgresServer();
 * const pool = new pg.Pool({ connectionString: server.url });
 * await server.stop();
 */
export async function startPostgresServer(
  options: PostgresServerOptions = {},
): Promise<PostgresServer> {
  const binaries = findPostgresBinaries(options.binDirectory);
  const root = mkdtempSync(join(tmpdir(), 'yeoul-postgres-'));
  const data = join(root, 'data');
  const socketDirectory = join(root, 'socket');
  mkdirSync(socketDirectory);
  const owner = binaries.runAs;
  if (owner) for (const path of [root, socketDirectory]) chownSync(path, owner.uid, owner.gid);
  const database = options.database ?? 'yeoul';
  let launched: RunningPostgres | undefined;
  try {
    await run(
      binaries.initdb,
      ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '-N'],
      { ...owner, env: { ...process.env, LC_ALL: 'C' } },
    );
    let server = await launchPostgres(binaries, root, options.settings ?? {});
    launched = server;
    const admin = (name: string) =>
      `postgres://postgres@127.0.0.1:${server.port}/${encodeURIComponent(name)}`;
    const url = await createDatabaseOn(admin('postgres'), database);
    let created = 0;
    return {
      url,
      port: server.port,
      directory: root,
      async createDatabase() {
        created += 1;
        return createDatabaseOn(admin('postgres'), `${database}_${created}`);
      },
      shutdown: (mode) => server.halt(mode),
      async start() {
        if (server.running()) return;
        server = await launchPostgres(binaries, root, options.settings ?? {}, server.port);
      },
      async stop() {
        await server.halt();
        rmSync(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await launched?.halt();
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Creates an empty database `name` on the server of `url` (whose role may create databases),
 * dropping one of that name first, and returns `url` pointing at it.
 * @example
 * const benchUrl = await createDatabaseOn(server.url, 'yeoul_bench');
 */
export async function createDatabaseOn(url: string, name: string): Promise<string> {
  const quoted = `"${name.replaceAll('"', '""')}"`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${quoted}`);
    await client.query(`CREATE DATABASE ${quoted}`);
  } finally {
    await client.end();
  }
  const target = new URL(url);
  target.pathname = `/${encodeURIComponent(name)}`;
  return target.toString();
}
