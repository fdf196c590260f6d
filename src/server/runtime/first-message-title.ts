import type { Runtime } from './create-runtime.ts';

/**
 * The first message a new session is registered (and titled) with: the message itself
 * when the graph that answers it has no input guardrails; otherwise none, because the title
 * must hold only what those guardrails leave: the runner titles the session once they ran.
 * @example
 * await runtime.sessions.claim(id, owner, firstMessageTitle(runtime, graph, message), graph);
 */
export function firstMessageTitle(
  runtime: Pick<Runtime, 'app' | 'graphs'>,
  graph: string | undefined,
  message: string | undefined,
): string | undefined {
  if (message === undefined) return undefined;
  const guardrails = runtime.app.guardrails.forGraph(graph ?? runtime.graphs.default.name);
  return guardrails.names.input.length > 0 ? undefined : message;
}
