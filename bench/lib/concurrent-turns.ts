import type { Checkpointer } from '../../src/graph/index.ts';
import { buildChatFixtureGraph, chatFixtureInput } from '../../src/testing/internal/index.ts';

/** How many turns are sent to one thread at once. */
export const concurrentTurns = 20;

/**
 * Sends `concurrentTurns` turns to one thread at once on `checkpointer` and counts how many
 * of their user messages the thread keeps (every one, when no write is lost).
 */
export async function measureConcurrentTurns(
  checkpointer: Checkpointer,
  log: (...parts: unknown[]) => void,
): Promise<{ sent: number; kept: number; errors: number }> {
  const graph = buildChatFixtureGraph({ checkpointer });
  const results = await Promise.allSettled(
    Array.from({ length: concurrentTurns }, (_, index) =>
      graph.invoke(chatFixtureInput(index + 1), { threadId: 'concurrent' }),
    ),
  );
  const state = await graph.getState('concurrent');
  const contents = new Set(state?.values.messages.map((message) => message.content));
  const kept = Array.from({ length: concurrentTurns }, (_, index) =>
    contents.has(chatFixtureInput(index + 1).messages.content),
  ).filter(Boolean).length;
  const errors = results.filter((result) => result.status === 'rejected').length;
  log(`concurrent: kept ${kept} of ${concurrentTurns} user messages, ${errors} errors`);
  return { sent: concurrentTurns, kept, errors };
}
