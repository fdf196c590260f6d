import type { ChildGraph } from '../types.ts';
import { deleteSubgraphThreads } from './subgraph-threads.ts';
import type { ThreadStore } from './thread-store.ts';

/** What removing a run needs of its graph. */
export interface RunRemovableGraph {
  store: ThreadStore | undefined;
  subgraphs?: ReadonlyMap<string, ChildGraph>;
}

/**
 * Removes a thread's last run, as if it had not run: its entries from its first on (and the
 * threads its subgraphs committed to) are deleted, and the thread is read again on its next
 * use. False, removing nothing, when the run has no entry on the thread, when another run's
 * entries follow its own, or when a snapshot folded it.
 */
export async function removeRun(
  graph: RunRemovableGraph,
  threadId: string,
  runId: string,
): Promise<boolean> {
  const store = graph.store;
  if (store === undefined) return false;
  const { checkpointer } = store;
  const log = await checkpointer.read(threadId, 0);
  const first = log.entries.findIndex((entry) => entry.runId === runId);
  if (first === -1 || log.entries.slice(first).some((entry) => entry.runId !== runId)) {
    return false;
  }
  const removed = await checkpointer.truncate(
    threadId,
    (log.entries[first] as { seq: number }).seq,
  );
  store.forget(threadId);
  if (removed && graph.subgraphs !== undefined && graph.subgraphs.size > 0) {
    await deleteSubgraphThreads(threadId, graph.subgraphs, checkpointer, new Set([runId]));
  }
  return removed;
}
