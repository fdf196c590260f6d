import type { CheckpointEntry, Checkpointer } from '../checkpoint/types.ts';
import {
  parentRunOf,
  subgraphThreadId,
  subgraphThreadPrefix,
} from '../planning/subgraph-thread-ids.ts';
import { type Superstep, superstepAfter } from '../planning/superstep.ts';
import type { StateSchema } from '../state.ts';
import type { ChildGraph, HistoryEntry } from '../types.ts';

type Entry = HistoryEntry<StateSchema>;

/**
 * A thread's history with the steps of its subgraphs put in: each subgraph run's entries
 * (with `path`) before the entry of its node that they led to — all of them before the
 * node's `node` or `task` entry, those up to its pause before an `interrupt` entry — and
 * what a run still going has done so far at the end. A fork's copied entries show the
 * subgraph runs of the thread they were copied from (a fork's own runs have their own).
 */
export async function withSubgraphEntries<Item>(
  threadId: string,
  log: readonly CheckpointEntry[],
  entries: readonly Item[],
  subgraphs: ReadonlyMap<string, ChildGraph>,
  checkpointer: Checkpointer,
): Promise<Item[]> {
  const runs = new Map<string, { entries: Entry[]; own: boolean[]; shown: number }>();
  /** The subgraph run's entries not shown yet, up to its next pause when `untilPause`. */
  const take = async (
    node: string,
    runId: string,
    step: number,
    task: number,
    untilPause: boolean,
  ) => {
    const subgraph = subgraphs.get(node);
    if (subgraph === undefined) return [];
    const id = subgraphThreadId(threadId, subgraph.name, runId, step, task);
    let run = runs.get(id);
    if (run === undefined) {
      const inner = await innerHistory(subgraph, checkpointer, origins, runId, step, task);
      run = {
        entries: inner.map((entry) => ({
          ...entry,
          path: [node, ...(entry.path ?? (entry.node === null ? [] : [entry.node]))],
        })),
        own: inner.map((entry) => entry.path === undefined),
        shown: 0,
      };
      runs.set(id, run);
    }
    const from = run.shown;
    const pause = untilPause
      ? run.entries.findIndex(
          (entry, index) => index >= from && run.own[index] && entry.status === 'interrupted',
        )
      : -1;
    run.shown = pause === -1 ? run.entries.length : pause + 1;
    return run.entries.slice(from, run.shown);
  };
  const origins = await originsOf(threadId, log, checkpointer);
  const merged: Item[] = [];
  let superstep: Superstep | null = null;
  for (const [index, entry] of log.entries()) {
    if ((entry.kind === 'node' || entry.kind === 'task') && entry.node !== null) {
      const task = entry.payload?.task ?? 0;
      merged.push(...((await take(entry.node, entry.runId, entry.step, task, false)) as Item[]));
    }
    if (entry.kind === 'interrupt' && superstep !== null) {
      for (const [task, { node }] of superstep.tasks.entries()) {
        merged.push(...((await take(node, entry.runId, entry.step, task, true)) as Item[]));
      }
    }
    merged.push(entries[index] as Item);
    superstep = superstepAfter(superstep, entry);
  }
  const last = log.at(-1);
  if (superstep !== null && last !== undefined) {
    for (const [task, { node }] of superstep.tasks.entries()) {
      merged.push(...((await take(node, last.runId, superstep.step, task, false)) as Item[]));
    }
  }
  return merged;
}

/** The history of one subgraph run, found on the thread or on the one it was forked from. */
async function innerHistory(
  subgraph: ChildGraph,
  checkpointer: Checkpointer,
  origins: readonly string[],
  runId: string,
  step: number,
  task: number,
): Promise<Entry[]> {
  const graph = subgraph.bound(checkpointer);
  for (const origin of origins) {
    const inner = await graph.history(subgraphThreadId(origin, subgraph.name, runId, step, task));
    if (inner.length > 0) return inner;
  }
  return [];
}

/** The thread, then the threads it was forked from, nearest first. */
async function originsOf(
  threadId: string,
  log: readonly CheckpointEntry[],
  checkpointer: Checkpointer,
): Promise<string[]> {
  const origins = [threadId];
  let entries = log;
  for (;;) {
    const from = entries.find((entry) => entry.kind === 'fork')?.payload?.forkedFrom?.threadId;
    if (from === undefined || origins.includes(from)) return origins;
    origins.push(from);
    entries = (await checkpointer.read(from, 0)).entries;
  }
}

/**
 * Deletes the threads the subgraphs of a thread's runs committed to (with theirs, nested);
 * with `onlyRuns`, only those of these runs (the runs retention folded away).
 */
export async function deleteSubgraphThreads(
  threadId: string,
  subgraphs: ReadonlyMap<string, ChildGraph>,
  checkpointer: Checkpointer,
  onlyRuns?: ReadonlySet<string>,
): Promise<void> {
  for (const subgraph of subgraphs.values()) {
    const prefix = subgraphThreadPrefix(threadId, subgraph.name);
    for (const thread of await checkpointer.listThreads({ prefix })) {
      // A checkpointer written before `prefix` existed gives every thread.
      if (!thread.threadId.startsWith(prefix)) continue;
      if (onlyRuns !== undefined) {
        const runId = parentRunOf(threadId, subgraph.name, thread.threadId);
        if (runId === undefined || !onlyRuns.has(runId)) continue;
      }
      await checkpointer.deleteThread(thread.threadId);
    }
  }
}

/**
 * Ends the subgraph runs a run of the thread left open (paused on questions, or going when
 * the run failed around them), so that none waits on a question no one can answer now.
 */
export async function endSubgraphRuns(
  threadId: string,
  runId: string,
  subgraphs: ReadonlyMap<string, ChildGraph>,
  checkpointer: Checkpointer,
  reason: string,
): Promise<void> {
  for (const subgraph of subgraphs.values()) {
    const prefix = subgraphThreadPrefix(threadId, subgraph.name, runId);
    for (const thread of await checkpointer.listThreads({ prefix })) {
      if (thread.status !== 'interrupted' && thread.status !== 'running') continue;
      // Its own subgraph runs only: those nested in them are ended by their own graph.
      if (thread.threadId.startsWith(prefix) && !thread.threadId.includes('#', prefix.length)) {
        await subgraph.bound(checkpointer).abandon(thread.threadId, reason);
      }
    }
  }
}
