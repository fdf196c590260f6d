import { CompiledGraph } from './compiled-graph.ts';
import { GraphValidationError } from './errors/graph-validation-error.ts';
import { validateGraph } from './planning/validate-graph.ts';
import type { StateSchema } from './state.ts';
import { Subgraph } from './subgraph.ts';
import {
  type CompileOptions,
  type Edge,
  END,
  type Join,
  type NodeFunction,
  type RouterFunction,
  START,
} from './types.ts';

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
 *
 * A node may be a graph (compiled or not): a subgraph, run on the parent's thread and
 * checkpointer, that shares the channels both graphs have.
 * @example
 * const research = new StateGraph(researchSchema).addNode('search', search).addEdge(START, 'search');
 * const graph = new StateGraph(schema).addNode('research', research).addEdge(START, 'research');
 */
export class StateGraph<Schema extends StateSchema, Context = unknown> {
  readonly schema: Schema;
  #nodes = new Map<string, NodeFunction<Schema, Context> | GraphNode>();
  #edges = new Map<string, Edge<Schema>[]>();
  #joins: Join[] = [];
  #problems: string[] = [];

  constructor(schema: Schema) {
    this.schema = schema;
  }

  /**
   * Adds a node under a unique name: a function, or a graph (a `StateGraph` or a compiled
   * one) run as a subgraph. A subgraph gets the channels both graphs have, and its updates
   * to them (not its whole state) are the node's update; its other channels stay inside.
   */
  addNode(name: string, node: NodeFunction<Schema, Context> | GraphNode): this {
    if (name === START || name === END) this.#problems.push(`"${name}" is a reserved node name`);
    else if (name.trim() === '') this.#problems.push('a node name is empty');
    else if (this.#nodes.has(name)) this.#problems.push(`node "${name}" is added twice`);
    else if (typeof node !== 'function' && !isGraph(node)) {
      this.#problems.push(`node "${name}" is neither a function nor a graph`);
    }
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
    const nodes = new Map<string, NodeFunction<Schema, Context>>();
    const subgraphs = new Map<string, Subgraph>();
    for (const [name, node] of this.#nodes) {
      if (!isGraph(node)) {
        nodes.set(name, node);
        continue;
      }
      try {
        const compiled = node instanceof StateGraph ? node.compile() : node;
        const subgraph = new Subgraph(name, compiled, this.schema);
        for (const key of subgraph.shared) {
          const outer = this.schema[key]?.kind;
          const inner = compiled.schema[key]?.kind;
          if (outer !== inner) {
            problems.push(
              `subgraph "${name}": the shared channel "${key}" is ${outer} here and ${inner} in the subgraph; it needs the same kind in both`,
            );
          }
        }
        subgraphs.set(name, subgraph);
        nodes.set(name, subgraph.node as NodeFunction<Schema, Context>);
      } catch (error) {
        if (!(error instanceof GraphValidationError)) throw error;
        problems.push(...error.problems.map((problem) => `subgraph "${name}": ${problem}`));
      }
    }
    if (problems.length > 0) throw new GraphValidationError({ problems });
    return new CompiledGraph({
      schema: this.schema,
      nodes,
      edges: this.#edges,
      joins: this.#joins,
      subgraphs,
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

/** A graph used as a node: a declaration or a compiled graph, of any schema. */
// biome-ignore lint/suspicious/noExplicitAny: a subgraph's schema and context are its own
export type GraphNode = StateGraph<any, any> | CompiledGraph<any, any>;

function isGraph(node: unknown): node is GraphNode {
  return node instanceof StateGraph || node instanceof CompiledGraph;
}
