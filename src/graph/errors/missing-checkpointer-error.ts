import { YeoulError } from '../../core/index.ts';

/** A thread operation was asked of a graph compiled without a checkpointer. */
export class MissingCheckpointerError extends YeoulError {
  readonly operation: string;

  constructor(fields: { operation: string }) {
    super(
      'graph_no_checkpointer',
      `${fields.operation} needs a checkpointer; compile the graph with one`,
    );
    this.operation = fields.operation;
  }
}
