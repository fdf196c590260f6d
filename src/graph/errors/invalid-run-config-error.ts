import { YeoulError } from '../../core/index.ts';

/** A run was started with options that cannot work (a step cap that is not a positive whole number, an empty thread id). */
export class InvalidRunConfigError extends YeoulError {
  readonly problems: string[];

  constructor(fields: { problems: string[] }) {
    super(
      'graph_invalid_run_config',
      `The run options are not valid: ${fields.problems.join('; ')}`,
    );
    this.problems = fields.problems;
  }
}
