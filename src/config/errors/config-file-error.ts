import { YeoulError } from '../../core/index.ts';

/** A config file that cannot be used: every problem, each naming its path (`tools[1].name: …`). */
export class ConfigFileError extends YeoulError {
  readonly problems: string[];
  readonly file: string;

  constructor(fields: { file: string; problems: string[] }) {
    super('config_invalid', `${fields.file} cannot be used:\n${fields.problems.join('\n')}`);
    this.file = fields.file;
    this.problems = fields.problems;
  }
}
