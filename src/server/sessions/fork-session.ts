import type { Runtime } from '../runtime/create-runtime.ts';
import type { ForkOrigin } from './session-store.ts';

/**
 * Forks session `from` after step `atStep` into `sessionId` (a new random id when absent) for
 * `owner`: the fork runs on its original's graph, is titled by its first user message and is
 * registered with where it came from. The fork's errors (a bad step, an id in use) are the
 * graph's, thrown as they are.
 */
export async function forkSession(
  runtime: Runtime,
  options: { from: string; atStep: number; owner: string; sessionId?: string },
): Promise<{ sessionId: string; forkedFrom: ForkOrigin }> {
  const { from, atStep, owner } = options;
  // The fork runs on the graph of its original (a user graph's session stays with it).
  const graph = await runtime.runner.threadGraph(from);
  const { threadId: sessionId } = await graph.fork(from, {
    atStep,
    ...(options.sessionId === undefined ? {} : { threadId: options.sessionId }),
  });
  const values = (await graph.getState(sessionId))?.values as { messages?: unknown } | undefined;
  const messages = Array.isArray(values?.messages)
    ? (values.messages as Array<{ role?: string; content?: unknown }>)
    : [];
  const first = messages.find((message) => message.role === 'user');
  const forkedFrom = { sessionId: from, step: atStep };
  await runtime.sessions.claim(
    sessionId,
    owner,
    typeof first?.content === 'string' ? first.content : '',
    await runtime.sessions.graphOf(from),
    forkedFrom,
  );
  return { sessionId, forkedFrom };
}
