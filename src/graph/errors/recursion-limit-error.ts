import { YeoulError } from '../../core/index.ts';

/** A run reached its cap on node executions (a loop that does not end, or a task too complex). */
export class RecursionLimitError extends YeoulError {
  readonly limit: number;
  readonly node: string;

  constructor(fields: { limit: number; node: string }) {
    super(
      'graph_recursion_limit',
      `The run reached its limit of ${fields.limit} node executions before "${fields.node}" could run`,
    );
    this.limit = fields.limit;
    this.node = fields.node;
  }
}
