import type { EntryPayload, Task } from '../checkpoint/types.ts';
import { InvalidRouteError } from '../errors/invalid-route-error.ts';
import { InvalidUpdateError } from '../errors/invalid-update-error.ts';
import { isSend } from '../send.ts';
import type { StateSchema } from '../state.ts';
import { type Edge, END, type Join } from '../types.ts';
import type { TaskWrite } from './superstep.ts';

type Values = Record<string, unknown>;

/** What routing needs of a compiled graph. */
export interface RoutableGraph {
  edges: ReadonlyMap<string, readonly Edge<StateSchema>[]>;
  joins: readonly Join[];
}

/** The next super-step: its tasks (none when the run ends) and the joins still waiting. */
export interface NextTasks {
  tasks: Task[];
  joins: Record<string, string[]>;
}

/**
 * The tasks that follow the nodes that just finished (in task order, START for a run's
 * input): for each node, its plain edges in the order declared, then what its router
 * returned in that order, then the joins it completed. A node named twice runs once; every
 * `send` is a task of its own. Routers read the state after the super-step's writes merged.
 */
export function nextTasks(
  graph: RoutableGraph,
  finished: readonly string[],
  values: Values,
  waiting: Record<string, string[]>,
): NextTasks {
  const tasks: Task[] = [];
  const add = (node: string) => {
    if (node !== END && !tasks.some((task) => task.node === node && task.input === undefined)) {
      tasks.push({ node });
    }
  };
  let joins = waiting;
  for (const from of finished) {
    for (const edge of graph.edges.get(from) ?? []) {
      if (edge.kind === 'plain') add(edge.to);
      else routeBy(from, edge, values, add, tasks);
    }
    graph.joins.forEach((join, index) => {
      if (!join.sources.includes(from)) return;
      const key = String(index);
      const seen = joins[key] ?? [];
      if (!seen.includes(from)) {
        joins = { ...joins, [key]: [...seen, from] };
      }
      if (join.sources.every((source) => (joins[key] as string[]).includes(source))) {
        const { [key]: _fired, ...rest } = joins;
        joins = rest;
        add(join.to);
      }
    });
  }
  return { tasks, joins };
}

function routeBy(
  from: string,
  edge: Extract<Edge<StateSchema>, { kind: 'conditional' }>,
  values: Values,
  add: (node: string) => void,
  tasks: Task[],
): void {
  const result = edge.router(values as never);
  const routes = Array.isArray(result) ? result : [result];
  for (const route of routes) {
    const node = isSend(route) ? route.node : route;
    if (
      typeof node !== 'string' ||
      !edge.destinations.includes(node) ||
      (isSend(route) && node === END)
    ) {
      throw new InvalidRouteError({
        node: from,
        route: isSend(route) ? `send(${JSON.stringify(node)})` : route,
        allowed: [...edge.destinations],
      });
    }
    if (isSend(route)) tasks.push({ node, input: route.input });
    else add(node);
  }
}

/** The entry fields that record the next super-step: `next` its first node, the rest in the payload. */
export function nextFields(next: NextTasks): { next: string; payload: EntryPayload | null } {
  const first = next.tasks[0];
  const lone =
    next.tasks.length <= 1 && first?.input === undefined && Object.keys(next.joins).length === 0;
  if (lone) return { next: first?.node ?? END, payload: null };
  return {
    next: first?.node ?? END,
    payload: {
      interrupts: [],
      answered: [],
      ...(next.tasks.length > 1 || first?.input !== undefined ? { tasks: next.tasks } : {}),
      ...(Object.keys(next.joins).length > 0 ? { joins: next.joins } : {}),
    },
  };
}

/** Fails when two tasks of one super-step wrote the same `replace` channel. */
export function checkConcurrentWrites(schema: StateSchema, writes: readonly TaskWrite[]): void {
  const writers = new Map<string, Map<number, string>>();
  for (const write of writes) {
    for (const key of Object.keys(write.update ?? {})) {
      if (schema[key]?.kind !== 'replace') continue;
      const byTask = writers.get(key) ?? new Map<number, string>();
      byTask.set(write.index, write.node);
      writers.set(key, byTask);
    }
  }
  for (const [channel, byTask] of writers) {
    if (byTask.size > 1) {
      throw new InvalidUpdateError({ channel, nodes: [...byTask.values()] });
    }
  }
}
