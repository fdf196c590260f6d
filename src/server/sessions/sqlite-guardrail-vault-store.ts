import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { SqliteWriteBatch, toSqliteStoreError } from '../../core/index.ts';
import {
  type GuardrailVaultStore,
  type VaultEntry,
  type VaultRow,
  vaultEntryOf,
} from './guardrail-vault-store.ts';

// A rowid table (not WITHOUT ROWID): the rowid keeps the order entries were added in.
const schema = `
CREATE TABLE IF NOT EXISTS guardrail_vault (
  session_id TEXT NOT NULL,
  placeholder TEXT NOT NULL,
  kind TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (session_id, placeholder)
);
`;

/**
 * The placeholder vaults in the embedded SQLite store: the data folder's database, beside the
 * sessions and the checkpoints (WAL, a busy timeout, shared by a `yeoul serve` and the command
 * line on the same folder). Writes join the connection's group commit; a full disk is a
 * `store_unavailable` error naming the file, never a value.
 * @example
 * const vaults = new SqliteGuardrailVaultStore(checkpointer.database);
 */
export class SqliteGuardrailVaultStore implements GuardrailVaultStore {
  #database: DatabaseSync;
  #batch: SqliteWriteBatch;
  #select: StatementSync;
  #insert: StatementSync;
  #insertOne: StatementSync;
  #delete: StatementSync;

  constructor(database: DatabaseSync) {
    database.exec(schema);
    this.#database = database;
    this.#batch = SqliteWriteBatch.of(database);
    this.#select = database.prepare(
      'SELECT placeholder, kind, value FROM guardrail_vault WHERE session_id = ? ORDER BY rowid',
    );
    this.#insertOne = database.prepare(
      'INSERT OR IGNORE INTO guardrail_vault (session_id, placeholder, kind, value) VALUES (?, ?, ?, ?)',
    );
    // One statement for several entries (a JSON array, in order): it adds them all or none.
    this.#insert = database.prepare(
      `INSERT OR IGNORE INTO guardrail_vault (session_id, placeholder, kind, value)
       SELECT ?, json_extract(entry.value, '$.placeholder'), json_extract(entry.value, '$.kind'),
         json_extract(entry.value, '$.value')
       FROM json_each(?) AS entry ORDER BY entry.key`,
    );
    this.#delete = database.prepare('DELETE FROM guardrail_vault WHERE session_id = ?');
  }

  async load(sessionId: string): Promise<VaultEntry[]> {
    try {
      return (this.#select.all(sessionId) as VaultRow[]).map(vaultEntryOf);
    } catch (error) {
      throw toSqliteStoreError(error, this.#database.location());
    }
  }

  async add(sessionId: string, entries: readonly VaultEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const [only] = entries;
    if (entries.length === 1 && only !== undefined) {
      await this.#batch.run(() =>
        this.#insertOne.run(sessionId, only.placeholder, only.kind, only.value),
      );
      return;
    }
    const rows = entries.map(({ placeholder, kind, value }) => ({ placeholder, kind, value }));
    await this.#batch.run(() => this.#insert.run(sessionId, JSON.stringify(rows)));
  }

  async delete(sessionId: string): Promise<void> {
    await this.#batch.run(() => this.#delete.run(sessionId));
  }
}
