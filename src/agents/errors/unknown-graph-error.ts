import { YeoulError } from '../../core/index.ts';

/** A request named a graph that is neither built in nor in the config file. */
export class UnknownGraphError extends YeoulError {
  readonly graph: string;

  constructor(fields: { graph: string; known: string[] }) {
    const known = ['chat', 'react', 'ops', ...fields.known].join(', ');
    super('graph_not_found', `There is no graph "${fields.graph}" (graphs: ${known})`);
    this.graph = fields.graph;
  }
}
