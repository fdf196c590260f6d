import type { GraphList } from '../../client/index.ts';
import { api } from './api-client.ts';

/** The graphs as the server listed them last (`listGraphs`). */
let listed: GraphList['graphs'] | undefined;

/**
 * The server's graphs (GET /api/graphs): the built-in agents first, its default graph the
 * very first, then the config file's. Remembered for `builtinGraphNames`.
 */
export async function listGraphs(): Promise<GraphList['graphs']> {
  listed = (await api.graphs.list()).graphs;
  return listed;
}

/**
 * The built-in agents' names as the server listed them last (listed now when they never
 * were; none when the server cannot say).
 */
export async function builtinGraphNames(): Promise<string[]> {
  const graphs = listed ?? (await listGraphs().catch(() => []));
  return graphs.filter((graph) => graph.builtin).map((graph) => graph.name);
}
