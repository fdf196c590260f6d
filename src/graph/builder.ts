import { CompiledGraph } from './compiled-graph.ts';
import { GraphValidationError } from './errors/graph-validation-error.ts';
import type { StateSchema } from './state.ts';
import {
  type CompileOptions,
  type Edge,
  END,
  type Join,
  type NodeFunction,
  type RouterFunction,
  START,
} from './types.ts';
import { validateGraph } from './validate-graph.ts';

/**
 * Declares a graph: nodes, plain edges and conditional edges over a state schema.
 * Nothing runs until `compile()`, which checks the whole declaration at once.
 * @example
 * const graph = new StateGraph(schema)
 *   .addNode('agent', agentNode)
 *   .addNode('tools', toolsNode)
 *   .addEdge(START, 'agent')
 *   .addConditionalEdges('agent', (state) => (hasToolCalls(state) ? 'tools' : END), ['tools', END])
 *   .addEdge('tools', 'agent')
 *   .compile({ checkpointer });
 */
export class StateGraph<Schema extends StateSchema, Context = unknown> {
  readonly schema: Schema;
  #nodes = new Map<string, NodeFunction<Schema, Context>>();
  #edges = new Map<string, Edge<Schema>[]>();
  #joins: Join[] = [];
  #problems: string[] = [];

  constructor(schema: Schema) {
    this.schema = schema;
  }

  /** Adds a node under a unique name. */
  addNode(name: string, node: NodeFunction<Schema, Context>): this {
    if (name === START || name === END) this.#problems.push(`"${name}" is a reserved node name`);
    else if (name.trim() === '') this.#problems.push('a node name is empty');
    else if (this.#nodes.has(name)) this.#problems.push(`node "${name}" is added twice`);
    else if (typeof node !== 'function') this.#problems.push(`node "${name}" is not a function`);
    this.#nodes.set(name, node);
    return this;
  }

  /**
   * After `from` (or START), always go to `to` (or END). Several edges out of one node run
   * their destinations together, in the order declared. With a list of sources (a join),
   * `to` runs once, after every one of them finished.
   */
  addEdge(from: string | readonly string[], to: string): this {
    if (typeof from === 'string') return this.#addEdge(from, { kind: 'plain', to });
    if (from.length === 1) return this.#addEdge(from[0] as string, { kind: 'plain', to });
    this.#joins.push({ sources: [...from], to });
    return this;
  }

  /** After `from`, go where `router` says; it must return one of `destinations`. */
  addConditionalEdges(
    from: string,
    router: RouterFunction<Schema>,
    destinations: readonly string[],
  ): this {
    return this.#addEdge(from, { kind: 'conditional', router, destinations: [...destinations] });
  }

  /** Validates the declaration and returns a runnable graph; throws GraphValidationError listing every problem. */
  compile(options: CompileOptions = {}): CompiledGraph<Schema, Context> {
    const problems = [
      ...this.#problems,
      ...validateGraph({ nodes: this.#nodes, edges: this.#edges, joins: this.#joins, options }),
    ];
    if (problems.length > 0) throw new GraphValidationError({ problems });
    return new CompiledGraph({
      schema: this.schema,
      nodes: this.#nodes,
      edges: this.#edges,
      joins: this.#joins,
      options,
    });
  }

  #addEdge(from: string, edge: Edge<Schema>): this {
    const list = this.#edges.get(from);
    if (list) list.push(edge);
    else this.#edges.set(from, [edge]);
    return this;
  }
}
