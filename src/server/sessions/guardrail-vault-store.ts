/**
 * One restorable value of a session's vault: the placeholder the model and the stored
 * messages show (`[EMAIL_1]`), the detector kind (`email`) and the real value. The same shape
 * as the guardrails' own vault entry.
 */
export interface VaultEntry {
  placeholder: string;
  kind: string;
  value: string;
}

/**
 * Where each session's placeholder vault is kept: the real values behind the placeholders a
 * `redact` guardrail wrote, so that the tools allowed real values get them back, in this
 * turn and in later ones, on any instance. Every backend (SQLite in the data folder,
 * PostgreSQL with `DATABASE_URL`) implements it. No API returns a vault and nothing logs one:
 * its values appear in no error message either. A vault is deleted with its session.
 * @example
 * await vaults.add('s1', [{ placeholder: '[EMAIL_1]', kind: 'email', value: 'hong@example.com' }]);
 * const entries = await vaults.load('s1'); // [{ placeholder: '[EMAIL_1]', … }]
 */
export interface GuardrailVaultStore {
  /** Every entry of the session's vault, in the order they were added (empty when none). */
  load(sessionId: string): Promise<VaultEntry[]>;
  /**
   * Adds entries; an entry whose placeholder the session already has is ignored (the first
   * value stays), so two instances adding the same entry is fine.
   */
  add(sessionId: string, entries: readonly VaultEntry[]): Promise<void>;
  /** Forgets the session's vault (nothing happens when it has none). */
  delete(sessionId: string): Promise<void>;
}

/** A vault row as both backends read it. */
export type VaultRow = VaultEntry & Record<string, unknown>;

/** An entry with only its three fields (a row may carry more). */
export function vaultEntryOf(row: VaultRow): VaultEntry {
  return { placeholder: row.placeholder, kind: row.kind, value: row.value };
}
