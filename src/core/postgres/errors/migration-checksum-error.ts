import { YeoulError } from '../../errors/yeoul-error.ts';

/**
 * Migrations already applied to the database differ from the code's: their SQL was edited
 * after it ran. Applied migrations are history; change the schema with a new migration.
 */
export class MigrationChecksumError extends YeoulError {
  /** The changed migrations, `{version, name}`. */
  readonly migrations: ReadonlyArray<{ version: number; name: string }>;

  constructor(fields: { migrations: ReadonlyArray<{ version: number; name: string }> }) {
    const names = fields.migrations.map((entry) => `${entry.version} ${entry.name}`).join(', ');
    super(
      'migration_checksum_mismatch',
      `Applied migrations were changed since they ran (${names}); restore their SQL and add a new migration instead`,
    );
    this.migrations = fields.migrations;
  }
}
