import { YeoulError } from '../../errors/yeoul-error.ts';

/** The list of migrations is malformed (a version used twice, not a positive integer, no name). */
export class MigrationDefinitionError extends YeoulError {
  /** Every problem found, one sentence each. */
  readonly problems: readonly string[];

  constructor(fields: { problems: readonly string[] }) {
    super('migration_invalid', `Invalid migrations: ${fields.problems.join('; ')}`);
    this.problems = fields.problems;
  }
}
