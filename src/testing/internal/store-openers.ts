import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import {
  applyMigrations,
  createPostgresPool,
  type Migration,
  type PostgresPool,
} from '../../core/index.ts';
import type { PostgresServer } from './postgres-server.ts';

/** A store a conformance suite opened, a way to open another on the same data, and the close. */
export interface OpenedStores<Store> {
  store: Store;
  another: () => Store | Promise<Store>;
  close: () => void | Promise<void>;
}

/** A connection to the data folder's database as the stores open it (WAL, a busy timeout). */
export function openSqliteDatabase(path: string): DatabaseSync {
  const database = new DatabaseSync(path);
  database.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;');
  return database;
}

/**
 * Opens `make`'s store on a new SQLite file under `root`; `another` opens a second connection
 * to the same file, as a second process would.
 * @example
 * runStoreConformance('sqlite', () => sqliteStores(root, (db) => new SqliteRunStore(db)));
 */
export function sqliteStores<Store>(
  root: string,
  make: (database: DatabaseSync) => Store,
): OpenedStores<Store> {
  const path = join(mkdtempSync(join(root, 'data-')), 'threads.sqlite');
  const databases = [openSqliteDatabase(path)];
  return {
    store: make(databases[0] as DatabaseSync),
    another: () => {
      const database = openSqliteDatabase(path);
      databases.push(database);
      return make(database);
    },
    close: () => {
      for (const database of databases) database.close();
    },
  };
}

/**
 * Opens `make`'s store on a new database of `server` with `migrations` applied; `another`
 * opens a second pool on it, as a second instance would.
 */
export async function postgresStores<Store>(
  server: PostgresServer,
  migrations: readonly Migration[],
  make: (pool: PostgresPool) => Store,
): Promise<OpenedStores<Store>> {
  const url = await server.createDatabase();
  const pools: PostgresPool[] = [await createPostgresPool({ url })];
  await applyMigrations(pools[0] as PostgresPool, migrations);
  return {
    store: make(pools[0] as PostgresPool),
    another: async () => {
      const pool = await createPostgresPool({ url });
      pools.push(pool);
      return make(pool);
    },
    close: async () => {
      for (const pool of pools) await pool.end();
    },
  };
}
