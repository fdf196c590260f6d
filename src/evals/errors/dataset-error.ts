import { YeoulError } from '../../core/index.ts';

/** A dataset that cannot be used: every bad line, each named with its number. */
export class DatasetError extends YeoulError {
  readonly source: string;
  readonly problems: string[];

  constructor(fields: { source: string; problems: string[] }) {
    super(
      'invalid_dataset',
      `${fields.source}: ${fields.problems.length} problem${fields.problems.length === 1 ? '' : 's'}:\n${fields.problems.join('\n')}`,
    );
    this.source = fields.source;
    this.problems = fields.problems;
  }
}
