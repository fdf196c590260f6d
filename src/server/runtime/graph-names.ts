import type { GraphEntry, GraphRegistry } from '../../agents/index.ts';
import { HttpError } from '../http/http-error.ts';

/** What the graph checks read of the runtime: its graph registry as loaded now. */
interface GraphsOf {
  graphs: GraphRegistry;
}

/** A user graph by name, or a 404 `graph_not_found` naming the graphs there are. */
export function requireUserGraph(runtime: GraphsOf, name: string): GraphEntry {
  const entry = runtime.graphs.get(name);
  if (entry === undefined || entry.builtin) throw graphNotFound(runtime, name);
  return entry;
}

/**
 * Checks that a request's `graph` names a chat graph: a built-in agent or a user graph with
 * a `messages` channel (404 `graph_not_found` for an unknown one, 400 for one that is not a
 * chat graph: those run through /api/graphs/NAME/invoke).
 */
export function requireChatGraph(runtime: GraphsOf, name: string): void {
  const entry = runtime.graphs.get(name);
  if (entry === undefined) throw graphNotFound(runtime, name);
  if (!entry.chat) {
    throw new HttpError({
      status: 400,
      code: 'not_a_chat_graph',
      message: `the graph "${name}" has no messages channel, so it does not answer messages; run it with POST /api/graphs/${name}/invoke`,
    });
  }
}

/** The names of every chat graph: the built-in agents, then the user chat graphs. */
export function chatGraphNames(runtime: GraphsOf): string[] {
  return runtime.graphs.chatNames();
}

function graphNotFound(runtime: GraphsOf, name: string): HttpError {
  return new HttpError({
    status: 404,
    code: 'graph_not_found',
    message: `there is no graph "${name}" (graphs: ${runtime.graphs.names().join(', ')})`,
  });
}
