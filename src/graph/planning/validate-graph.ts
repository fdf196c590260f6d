import { InvalidRunConfigError } from '../errors/invalid-run-config-error.ts';
import type { StateSchema } from '../state.ts';
import {
  type CompileOptions,
  durabilityModes,
  type Edge,
  END,
  type Join,
  type RunConfig,
  START,
} from '../types.ts';

interface Declaration<Schema extends StateSchema> {
  nodes: ReadonlyMap<string, unknown>;
  edges: ReadonlyMap<string, Edge<Schema>[]>;
  joins: readonly Join[];
  options: CompileOptions;
}

/** Every problem with a graph declaration, in words a developer can act on; empty when valid. */
export function validateGraph<Schema extends StateSchema>(
  declaration: Declaration<Schema>,
): string[] {
  const { nodes, edges, joins, options } = declaration;
  const problems: string[] = [];
  const isTarget = (name: string) => name === END || nodes.has(name);

  if (!edges.has(START))
    problems.push('no edge leaves START: add an entry point with addEdge(START, "…")');
  for (const [from, list] of edges) {
    if (from === END) problems.push('an edge leaves END, which ends the run');
    else if (from !== START && !nodes.has(from))
      problems.push(`an edge leaves unknown node "${from}"`);
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
  const joined = new Set<string>();
  for (const join of joins) {
    for (const source of join.sources) {
      joined.add(source);
      if (!nodes.has(source)) {
        problems.push(`the join into "${join.to}" waits for "${source}", which is not a node`);
      }
    }
    if (!isTarget(join.to)) problems.push(`the join into "${join.to}" goes to an unknown node`);
  }
  for (const name of nodes.keys()) {
    if (!edges.has(name) && !joined.has(name))
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
    options.maxConcurrency !== undefined &&
    !(Number.isInteger(options.maxConcurrency) && options.maxConcurrency > 0)
  ) {
    problems.push(`maxConcurrency must be a positive whole number, not ${options.maxConcurrency}`);
  }
  const durability = durabilityProblem(options.durability);
  if (durability !== undefined) problems.push(durability);
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

  const reachable = reachableFrom([START], edges, joins);
  if (options.errorNode !== undefined) {
    for (const name of reachableFrom([options.errorNode], edges, joins)) reachable.add(name);
    reachable.add(options.errorNode);
  }
  for (const name of nodes.keys()) {
    if (!reachable.has(name)) problems.push(`node "${name}" cannot be reached from START`);
  }
  return problems;
}

/** What is wrong with a durability mode, or undefined when it is one of the three. */
export function durabilityProblem(durability: unknown): string | undefined {
  if (durability === undefined || durabilityModes.includes(durability as never)) return undefined;
  return `durability must be "sync", "async" or "exit", not ${JSON.stringify(durability)}`;
}

/** Refuses run options that cannot work, naming every problem (InvalidRunConfigError). */
export function checkRunConfig(config: RunConfig<unknown>): void {
  const problems: string[] = [];
  const { maxSteps, threadId } = config;
  if (maxSteps !== undefined && !(Number.isInteger(maxSteps) && maxSteps > 0)) {
    problems.push(`maxSteps must be a positive whole number, not ${String(maxSteps)}`);
  }
  if (threadId !== undefined && (typeof threadId !== 'string' || threadId.length === 0)) {
    problems.push('threadId must be a non-empty string');
  }
  if (
    config.runId !== undefined &&
    (typeof config.runId !== 'string' || config.runId.length === 0)
  ) {
    problems.push('runId must be a non-empty string');
  }
  const durability = durabilityProblem(config.durability);
  if (durability !== undefined) problems.push(durability);
  if (problems.length > 0) throw new InvalidRunConfigError({ problems });
}

function reachableFrom<Schema extends StateSchema>(
  origins: string[],
  edges: ReadonlyMap<string, Edge<Schema>[]>,
  joins: readonly Join[],
): Set<string> {
  const seen = new Set<string>();
  const pending = [...origins];
  while (pending.length > 0) {
    const from = pending.pop() as string;
    const targets = joins.filter((join) => join.sources.includes(from)).map((join) => join.to);
    for (const edge of edges.get(from) ?? []) {
      targets.push(...(edge.kind === 'plain' ? [edge.to] : edge.destinations));
    }
    for (const to of targets) {
      if (!seen.has(to)) {
        seen.add(to);
        pending.push(to);
      }
    }
  }
  return seen;
}
