import { createId } from '../../core/index.ts';
import type { Runtime } from '../runtime/create-runtime.ts';
import type { ForkOrigin } from './session-store.ts';

/**
 * Forks session `from` after step `atStep` into `sessionId` (a new random id when absent) for
 * `owner`: the fork runs on its original's graph, is titled by its first user message, takes
 * a copy of the original's guardrail vault and is registered with where it came from — before
 * its thread is written, so that the thread is never anyone else's. The fork's errors (a bad
 * step, an id in use) are the graph's, thrown as they are, and leave nothing registered.
 */
export async function forkSession(
  runtime: Runtime,
  options: { from: string; atStep: number; owner: string; sessionId?: string },
): Promise<{ sessionId: string; forkedFrom: ForkOrigin }> {
  const { from, atStep, owner } = options;
  const sessionId = options.sessionId ?? createId();
  const forkedFrom = { sessionId: from, step: atStep };
  // The fork runs on the graph of its original (a user graph's session stays with it).
  const graphName = await runtime.sessions.graphOf(from);
  const graph = await runtime.runner.threadGraph(from);
  await runtime.sessions.claim(sessionId, owner, '', graphName, forkedFrom);
  try {
    // The fork's messages hold the original's placeholders: its tools get the same values back.
    await runtime.vaults.add(sessionId, await runtime.vaults.load(from));
    await graph.fork(from, { atStep, threadId: sessionId });
  } catch (error) {
    await runtime.vaults.delete(sessionId);
    await runtime.sessions.forget(sessionId);
    throw error;
  }
  const values = (await graph.getState(sessionId))?.values as { messages?: unknown } | undefined;
  const messages = Array.isArray(values?.messages)
    ? (values.messages as Array<{ role?: string; content?: unknown }>)
    : [];
  const first = messages.find((message) => message.role === 'user');
  // Titled once its first message is known (a registered session takes a title once).
  if (typeof first?.content === 'string' && first.content !== '') {
    await runtime.sessions.claim(sessionId, owner, first.content, graphName);
  }
  return { sessionId, forkedFrom };
}
