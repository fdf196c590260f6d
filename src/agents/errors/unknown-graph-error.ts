import { YeoulError } from '../../core/index.ts';

/** A request named a graph that is neither built in nor in the config file. */
export class UnknownGraphError extends YeoulError {
  readonly graph: string;

  /** `known`: every graph's name, as the graph registry lists them. */
  constructor(fields: { graph: string; known: string[] }) {
    super(
      'graph_not_found',
      `There is no graph "${fields.graph}" (graphs: ${fields.known.join(', ')})`,
    );
    this.graph = fields.graph;
  }
}
