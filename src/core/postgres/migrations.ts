import { createHash } from 'node:crypto';
import { MigrationDefinitionError } from './errors/migration-definition-error.ts';

/**
 * One schema change: SQL run once, in a transaction of its own, and recorded with its
 * checksum in `yeoul_migrations`. Never edit one that has shipped; add another.
 *
 * Versions are unique across Yeoul. Each module that keeps state in PostgreSQL exports its
 * own list, with versions from its own block, so modules never collide:
 * core 1–99, knowledge 100–199, graph (checkpoints) 200–299, server (sessions, approvals,
 * queue, leases, events) 300–399, evaluations 600–699, memory 700–799, usage 800–899,
 * guardrails (the sessions' placeholder vaults) 900, webhooks (the delivery outbox) 901–919,
 * schedules 920–939, runs 940–959; the composition root joins the lists with `combineMigrations`.
 */
export interface Migration {
  /** Position in the one ordered list (a positive integer, unique). */
  readonly version: number;
  /** A short snake_case name (`knowledge_base`), shown by `yeoul migrate --status`. */
  readonly name: string;
  /** One or more statements; no `CREATE INDEX CONCURRENTLY` (it cannot run in a transaction). */
  readonly sql: string;
}

/** The SHA-256 of a migration's SQL (line endings normalised), to notice later edits. */
export function migrationChecksum(migration: Migration): string {
  return createHash('sha256').update(migration.sql.replaceAll('\r\n', '\n')).digest('hex');
}

/**
 * Joins the modules' migration lists into the one list to apply, ordered by version;
 * throws `MigrationDefinitionError` naming every version used twice or malformed entry.
 * @example
 * const all = combineMigrations(knowledgeMigrations, checkpointMigrations);
 * await applyMigrations(pool, all);
 */
export function combineMigrations(...lists: ReadonlyArray<readonly Migration[]>): Migration[] {
  const all = lists.flat();
  const problems: string[] = [];
  const seen = new Map<number, string>();
  for (const migration of all) {
    if (!Number.isSafeInteger(migration.version) || migration.version <= 0) {
      problems.push(
        `version ${migration.version} of "${migration.name}" is not a positive integer`,
      );
    }
    if (!/^[a-z0-9_]+$/.test(migration.name)) {
      problems.push(
        `migration ${migration.version} needs a snake_case name, not "${migration.name}"`,
      );
    }
    if (migration.sql.trim() === '') problems.push(`migration ${migration.version} has no SQL`);
    const other = seen.get(migration.version);
    if (other !== undefined) {
      problems.push(
        `version ${migration.version} is used by both "${other}" and "${migration.name}"`,
      );
    }
    seen.set(migration.version, migration.name);
  }
  if (problems.length > 0) throw new MigrationDefinitionError({ problems });
  return [...all].sort((a, b) => a.version - b.version);
}
