import { YeoulError } from '../../core/index.ts';

/**
 * A subgraph changed a shared channel several times and its updates cannot be passed out
 * as one: the channel has a reducer of its own, which the runtime cannot combine.
 */
export class SubgraphUpdateError extends YeoulError {
  /** The subgraph's node in the parent graph. */
  readonly node: string;
  readonly channel: string;
  readonly updates: number;

  constructor(fields: { node: string; channel: string; updates: number }) {
    super(
      'subgraph_update',
      `Subgraph "${fields.node}" updated the shared channel "${fields.channel}" ${fields.updates} times; a channel with a reducer of its own takes one update from a subgraph (use replace, append, increment or messages, or keep the channel inside the subgraph)`,
    );
    this.node = fields.node;
    this.channel = fields.channel;
    this.updates = fields.updates;
  }
}
