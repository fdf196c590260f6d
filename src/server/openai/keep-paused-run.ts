import { opsThreadOf } from '../../agents/index.ts';
import type { Checkpointer } from '../../graph/index.ts';

/**
 * Moves a stateless run that paused for approval from the in-memory store to the durable
 * one, under the same id, so that it can be decided like any session's run (and survives
 * a restart while it waits). Its threads — the conversation, and the ops loop's when it
 * ran — are copied entry by entry, as this instance's; the caller then drops them from memory.
 */
export async function keepPausedRun(
  from: Checkpointer,
  to: Checkpointer,
  sessionId: string,
): Promise<void> {
  for (const threadId of [sessionId, opsThreadOf(sessionId)]) {
    const log = await from.read(threadId);
    // One run, never compacted: the log is whole.
    if (log.base !== null) throw new Error(`thread ${threadId} was compacted; it cannot be moved`);
    for (const entry of log.entries) {
      await to.append({ ...entry, owner: entry.owner === null ? null : to.instanceId });
    }
  }
}
