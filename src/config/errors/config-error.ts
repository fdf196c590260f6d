import { YeoulError } from '../../core/index.ts';

/** The configuration (the environment, or what the runtime was given) cannot work; every problem is listed. */
export class ConfigError extends YeoulError {
  readonly problems: string[];
  /** A variable was written wrong where that is bad usage: the command line exits 2, not 1. */
  readonly usage: boolean;

  constructor(fields: { problems: string[]; usage?: boolean }) {
    super('config_invalid', `The configuration is not valid: ${fields.problems.join('; ')}`);
    this.problems = fields.problems;
    this.usage = fields.usage ?? false;
  }
}
