import type { PostgresPool } from '../core/index.ts';
import type { Embedder } from '../models/index.ts';
import { PostgresMemoryRows } from './postgres-memory-rows.ts';
import { RowMemoryStore } from './row-memory-store.ts';
import { SqliteMemoryRows } from './sqlite-memory-rows.ts';
import type { MemoryItem, MemoryQuery, MemoryStore, OwnerMemory } from './types.ts';

/**
 * The memory store in an embedded SQLite file (`memory.sqlite` of the data folder).
 * @example
 * const memory = openSqliteMemoryStore({ path: 'data/memory.sqlite' });
 * await memory.put('anonymous', 'profile', 'name', '철수');
 */
export function openSqliteMemoryStore(options: {
  path: string;
  embedder?: Embedder | undefined;
}): MemoryStore {
  return new RowMemoryStore(new SqliteMemoryRows({ path: options.path }), {
    embedder: options.embedder,
  });
}

/** The memory store in PostgreSQL (after `memoryMigrations`), on a pool its opener closes. */
export function openPostgresMemoryStore(
  pool: PostgresPool,
  options: { embedder?: Embedder | undefined } = {},
): MemoryStore {
  return new RowMemoryStore(new PostgresMemoryRows(pool), { embedder: options.embedder });
}

/**
 * One owner's view of a store: what the chat agent and user graphs are handed, so that
 * nothing they do can reach another owner's items.
 */
export function forOwner(store: MemoryStore, owner: string): OwnerMemory {
  return {
    owner,
    put: (namespace: string, key: string, value: unknown): Promise<MemoryItem> =>
      store.put(owner, namespace, key, value),
    get: (namespace: string, key: string) => store.get(owner, namespace, key),
    delete: (namespace: string, key: string) => store.delete(owner, namespace, key),
    search: (query?: MemoryQuery) => store.search(owner, query),
  };
}
