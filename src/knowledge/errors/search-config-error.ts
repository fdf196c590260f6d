import { YeoulError } from '../../core/index.ts';

/** `YEOUL_SEARCH_URL` (or the credentials beside it) cannot be used; every problem is listed. */
export class SearchConfigError extends YeoulError {
  readonly problems: string[];

  constructor(fields: { problems: string[] }, options: { cause?: unknown } = {}) {
    super(
      'search_config_invalid',
      `The search configuration is not valid: ${fields.problems.join('; ')}`,
      options,
    );
    this.problems = fields.problems;
  }
}
