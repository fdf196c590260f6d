import { YeoulError } from '../../core/index.ts';

/** The model configuration cannot work (an unknown provider, a missing key or URL). */
export class ModelConfigError extends YeoulError {
  readonly problems: string[];

  constructor(fields: { problems: string[] }) {
    super('model_config', `The model configuration is not usable: ${fields.problems.join('; ')}`);
    this.problems = fields.problems;
  }
}
