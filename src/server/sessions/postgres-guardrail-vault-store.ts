import { type PostgresPool, queryPostgres } from '../../core/index.ts';
import {
  type GuardrailVaultStore,
  type VaultEntry,
  type VaultRow,
  vaultEntryOf,
} from './guardrail-vault-store.ts';

/**
 * The placeholder vaults in PostgreSQL (`guardrail_vault`, from `guardrailVaultMigrations`),
 * shared by every instance on the database: a placeholder written through one instance is
 * restored through any other. Same rules as the SQLite vaults.
 * @example
 * const vaults = new PostgresGuardrailVaultStore(pool);
 */
export class PostgresGuardrailVaultStore implements GuardrailVaultStore {
  #pool: PostgresPool;

  constructor(pool: PostgresPool) {
    this.#pool = pool;
  }

  async load(sessionId: string): Promise<VaultEntry[]> {
    const { rows } = await queryPostgres<VaultRow>(
      this.#pool,
      'SELECT placeholder, kind, value FROM guardrail_vault WHERE session_id = $1 ORDER BY id',
      [sessionId],
    );
    return rows.map(vaultEntryOf);
  }

  async add(sessionId: string, entries: readonly VaultEntry[]): Promise<void> {
    if (entries.length === 0) return;
    // One statement, the entries in their order; a placeholder taken already (by another
    // instance, or earlier in the list) keeps its first value.
    await queryPostgres(
      this.#pool,
      `INSERT INTO guardrail_vault (session_id, placeholder, kind, value)
       SELECT $1, entry.placeholder, entry.kind, entry.value
       FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY
         AS entry (placeholder, kind, value, position)
       ORDER BY entry.position
       ON CONFLICT (session_id, placeholder) DO NOTHING`,
      [
        sessionId,
        entries.map((entry) => entry.placeholder),
        entries.map((entry) => entry.kind),
        entries.map((entry) => entry.value),
      ],
    );
  }

  async delete(sessionId: string): Promise<void> {
    await queryPostgres(this.#pool, 'DELETE FROM guardrail_vault WHERE session_id = $1', [
      sessionId,
    ]);
  }
}
