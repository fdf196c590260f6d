import { createId } from '../../core/index.ts';
import { prepareUpdate, type StateSchema } from '../state.ts';
import type { ThreadStore } from './thread-store.ts';

/**
 * Applies `update` to a thread's state through the channels' reducers, as one entry of its
 * own (an input that no node follows: the thread stays finished, its history naming the
 * entry `node` when given), creating the thread when it has none. It is written after the thread's last entry: when another writer got there
 * first (a run started meanwhile), the `CheckpointConflictError` is thrown and nothing is
 * written. The caller makes sure no run is going or paused on the thread.
 */
export async function updateThread(
  store: ThreadStore,
  schema: StateSchema,
  threadId: string,
  update: Record<string, unknown>,
  node: string | null = null,
): Promise<void> {
  const log = await store.checkpointer.read(threadId, 0);
  const last = log.entries.at(-1) ?? log.base;
  const prepared = prepareUpdate(schema, update, '(update)');
  try {
    await store.checkpointer.append({
      threadId,
      seq: (last?.seq ?? 0) + 1,
      runId: createId(),
      kind: 'input',
      node,
      step: 0,
      update: prepared ?? null,
      next: null,
      status: 'done',
      error: null,
      createdAt: Date.now(),
      owner: null,
      payload: null,
    });
  } finally {
    store.forget(threadId);
  }
}
