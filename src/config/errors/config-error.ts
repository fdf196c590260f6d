import { YeoulError } from '../../core/index.ts';

/** The configuration (the environment, or what the runtime was given) cannot work; every problem is listed. */
export class ConfigError extends YeoulError {
  readonly problems: string[];

  constructor(fields: { problems: string[] }) {
    super('config_invalid', `The configuration is not valid: ${fields.problems.join('; ')}`);
    this.problems = fields.problems;
  }
}
