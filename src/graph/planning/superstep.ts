import type { CheckpointEntry, Task } from '../checkpoint/types.ts';
import { applyUpdate, type StateSchema } from '../state.ts';

type Values = Record<string, unknown>;

/** A write of a task of the current super-step, committed but not yet merged into the state. */
export interface TaskWrite {
  /** The task's place in its super-step, which fixes the order writes are merged in. */
  index: number;
  node: string;
  update: Values | null;
}

/**
 * Where a run stands between entries: the super-step it runs (numbered from 1 per run),
 * its tasks, the writes of those that committed, and the joins that wait for more sources.
 */
export interface Superstep {
  step: number;
  tasks: Task[];
  /** Writes committed in this super-step, in commit order (a task's partial write first). */
  writes: TaskWrite[];
  /** Indices of the tasks that finished (their final write is in `writes`). */
  finished: number[];
  /** Joins (by key) with the sources that finished since the join last fired. */
  joins: Record<string, string[]>;
}

/** The super-step an entry that ends one (input, node) starts, or null when the run ended. */
function startedBy(entry: CheckpointEntry): Superstep | null {
  if (entry.next === null) return null;
  return {
    step: entry.kind === 'input' ? 1 : entry.step + 1,
    tasks: entry.payload?.tasks ?? [{ node: entry.next }],
    writes: [],
    finished: [],
    joins: entry.payload?.joins ?? {},
  };
}

/** A super-step's writes in task order (stable: a task's partial write before its final one). */
function inTaskOrder(writes: readonly TaskWrite[]): TaskWrite[] {
  return [...writes].sort((a, b) => a.index - b.index);
}

/** A super-step's writes merged in task order. */
export function mergeWrites(
  schema: StateSchema,
  values: Values,
  writes: readonly TaskWrite[],
): Values {
  let merged = values;
  for (const write of inTaskOrder(writes))
    merged = applyUpdate(schema, merged, write.update ?? undefined);
  return merged;
}

/** The write an entry of a task commits. */
function writeOf(entry: CheckpointEntry, index: number): TaskWrite {
  return { index, node: entry.node ?? '', update: entry.update };
}

/**
 * The super-step after one entry. A super-step of one task is one `node` entry. In a
 * super-step of several tasks, each task that finishes first commits a `task` entry; the
 * last one commits the `node` entry (with `payload.task`) that completes the super-step.
 * `interrupt` and `resume` entries leave the super-step as it is (its open tasks run again).
 */
export function superstepAfter(
  superstep: Superstep | null,
  entry: CheckpointEntry,
): Superstep | null {
  switch (entry.kind) {
    case 'task': {
      if (superstep === null) return null;
      const index = entry.payload?.task ?? 0;
      const finished = entry.payload?.partial ? superstep.finished : [...superstep.finished, index];
      return { ...superstep, writes: [...superstep.writes, writeOf(entry, index)], finished };
    }
    case 'node':
    case 'input':
      return startedBy(entry);
    case 'interrupt':
    case 'resume':
    case 'fork':
      return superstep;
    case 'end':
      return null;
  }
}

/**
 * The updates one entry applies to the state, in order: a `task` entry's update waits for
 * the entry that completes its super-step, which applies every write of it in task order;
 * any other entry's update applies at once (a lone task's partial work on `interrupt`
 * included).
 */
export function updatesOfEntry(superstep: Superstep | null, entry: CheckpointEntry): Values[] {
  if (entry.kind === 'task' || entry.kind === 'resume') return [];
  const index = entry.payload?.task;
  if (entry.kind === 'node' && index !== undefined && superstep !== null) {
    const writes = inTaskOrder([...superstep.writes, writeOf(entry, index)]);
    return writes.flatMap((write) => (write.update === null ? [] : [write.update]));
  }
  return entry.update === null ? [] : [entry.update];
}

/** The state and super-step after one entry (see `updatesOfEntry` for what it applies). */
export function applyEntry(
  schema: StateSchema,
  values: Values,
  superstep: Superstep | null,
  entry: CheckpointEntry,
): { values: Values; superstep: Superstep | null } {
  const after = superstepAfter(superstep, entry);
  if (entry.kind === 'task' || entry.kind === 'resume') return { values, superstep: after };
  if (entry.kind === 'node' && entry.payload?.task !== undefined && superstep !== null) {
    let merged = values;
    for (const update of updatesOfEntry(superstep, entry)) {
      merged = applyUpdate(schema, merged, update);
    }
    return { values: merged, superstep: after };
  }
  // The common case, kept free of allocations: replay runs it for every stored entry.
  return { values: applyUpdate(schema, values, entry.update ?? undefined), superstep: after };
}
