import { YeoulError, type YeoulErrorOptions } from '../../errors/yeoul-error.ts';

/** A migration's SQL failed; its transaction was rolled back and later ones were not run. */
export class MigrationFailedError extends YeoulError {
  readonly version: number;
  /** The migration's name (`name` itself is the error class's). */
  readonly migrationName: string;
  /** The database's error message. */
  readonly reason: string;

  constructor(
    fields: { version: number; name: string; reason: string },
    options: YeoulErrorOptions = {},
  ) {
    super(
      'migration_failed',
      `Migration ${fields.version} ${fields.name} failed and was rolled back: ${fields.reason}`,
      options,
    );
    this.version = fields.version;
    this.migrationName = fields.name;
    this.reason = fields.reason;
  }
}
