import { YeoulError } from '../../core/index.ts';

/** A graph failed to compile; `problems` lists every problem found, not just the first. */
export class GraphValidationError extends YeoulError {
  readonly problems: string[];

  constructor(fields: { problems: string[] }) {
    super(
      'graph_invalid',
      `The graph is not valid:\n${fields.problems.map((problem) => `- ${problem}`).join('\n')}`,
    );
    this.problems = fields.problems;
  }
}
