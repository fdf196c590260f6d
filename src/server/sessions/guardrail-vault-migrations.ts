import type { Migration } from '../../core/index.ts';

const vaultSql = `
-- Each session's placeholder vault (GuardrailVaultStore): the real value behind each
-- placeholder a redacting guardrail wrote ([EMAIL_1] → the address), for the tools allowed
-- real values, on any instance. id keeps the order entries were added in. Deleted with the
-- session; no API returns it.
CREATE TABLE guardrail_vault (
  session_id text COLLATE "C" NOT NULL,
  placeholder text COLLATE "C" NOT NULL,
  kind text NOT NULL,
  value text NOT NULL,
  id bigint GENERATED ALWAYS AS IDENTITY,
  PRIMARY KEY (session_id, placeholder)
);
`;

/** The guardrails' schema in PostgreSQL (versions 900–999): the sessions' placeholder vaults. */
export const guardrailVaultMigrations: readonly Migration[] = [
  { version: 900, name: 'guardrail_vault', sql: vaultSql },
];
