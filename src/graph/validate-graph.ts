import type { StateSchema } from './state.ts';
import { type CompileOptions, type Edge, END, START } from './types.ts';

interface Declaration<Schema extends StateSchema> {
  nodes: ReadonlyMap<string, unknown>;
  edges: ReadonlyMap<string, Edge<Schema>[]>;
  options: CompileOptions;
}

/** Every problem with a graph declaration, in words a developer can act on; empty when valid. */
export function validateGraph<Schema extends StateSchema>(
  declaration: Declaration<Schema>,
): string[] {
  const { nodes, edges, options } = declaration;
  const problems: string[] = [];
  const isTarget = (name: string) => name === END || nodes.has(name);

  if (!edges.has(START))
    problems.push('no edge leaves START: add an entry point with addEdge(START, "…")');
  for (const [from, list] of edges) {
    if (from === END) problems.push('an edge leaves END, which ends the run');
    else if (from !== START && !nodes.has(from))
      problems.push(`an edge leaves unknown node "${from}"`);
    if (list.length > 1) {
      problems.push(
        `"${from}" has ${list.length} outgoing edges; use one edge or one conditional edge`,
      );
    }
    for (const edge of list) {
      if (edge.kind === 'plain') {
        if (!isTarget(edge.to))
          problems.push(`the edge "${from}" → "${edge.to}" goes to an unknown node`);
        continue;
      }
      if (typeof edge.router !== 'function')
        problems.push(`the conditional edge after "${from}" has no router function`);
      if (edge.destinations.length === 0) {
        problems.push(`the conditional edge after "${from}" declares no destinations`);
      }
      for (const to of edge.destinations) {
        if (to === START) problems.push(`the conditional edge after "${from}" may not go to START`);
        else if (!isTarget(to)) {
          problems.push(
            `the conditional edge after "${from}" declares unknown destination "${to}"`,
          );
        }
      }
    }
  }
  for (const name of nodes.keys()) {
    if (!edges.has(name))
      problems.push(`node "${name}" has no outgoing edge (add one, to END if it finishes the run)`);
  }
  if (options.errorNode !== undefined && !nodes.has(options.errorNode)) {
    problems.push(`errorNode "${options.errorNode}" is not a node of the graph`);
  }
  if (
    options.maxSteps !== undefined &&
    !(Number.isInteger(options.maxSteps) && options.maxSteps > 0)
  ) {
    problems.push(`maxSteps must be a positive whole number, not ${options.maxSteps}`);
  }
  if (
    options.retention !== undefined &&
    !(Number.isInteger(options.retention.keepRuns) && options.retention.keepRuns > 0)
  ) {
    problems.push(
      `retention.keepRuns must be a positive whole number, not ${options.retention.keepRuns}`,
    );
  }
  if (options.retention !== undefined && options.checkpointer === undefined) {
    problems.push('retention needs a checkpointer');
  }

  const reachable = reachableFrom(START, edges);
  if (options.errorNode !== undefined) {
    for (const name of reachableFrom(options.errorNode, edges)) reachable.add(name);
    reachable.add(options.errorNode);
  }
  for (const name of nodes.keys()) {
    if (!reachable.has(name)) problems.push(`node "${name}" cannot be reached from START`);
  }
  return problems;
}

function reachableFrom<Schema extends StateSchema>(
  origin: string,
  edges: ReadonlyMap<string, Edge<Schema>[]>,
): Set<string> {
  const seen = new Set<string>();
  const pending = [origin];
  while (pending.length > 0) {
    const from = pending.pop() as string;
    for (const edge of edges.get(from) ?? []) {
      const targets = edge.kind === 'plain' ? [edge.to] : edge.destinations;
      for (const to of targets) {
        if (!seen.has(to)) {
          seen.add(to);
          pending.push(to);
        }
      }
    }
  }
  return seen;
}
