import { YeoulError } from '../../core/index.ts';

/** The configuration (the environment, or what the runtime was given) cannot work; every problem is listed. */
export class ConfigError extends YeoulError {
  readonly problems: string[];
  /** True when the problems are bad environment variables, each named (the CLI exits 2). */
  readonly environment: boolean;

  constructor(fields: { problems: string[]; environment?: boolean }) {
    super('config_invalid', `The configuration is not valid: ${fields.problems.join('; ')}`);
    this.problems = fields.problems;
    this.environment = fields.environment ?? false;
  }
}
