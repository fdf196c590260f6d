import { createId } from '../../core/index.ts';
import type { CheckpointEntry } from '../checkpoint/types.ts';
import { CheckpointConflictError } from '../errors/checkpoint-conflict-error.ts';
import { ForkPointError } from '../errors/fork-point-error.ts';
import { ThreadExistsError } from '../errors/thread-exists-error.ts';
import { ThreadNotFoundError } from '../errors/thread-not-found-error.ts';
import { prepareUpdate, type StateSchema } from '../state.ts';
import type { ThreadStore } from './thread-store.ts';

/** Where to fork a thread, under which id, and what to change on the fork. */
export interface ForkOptions {
  /** The step (as `history()` numbers them) whose state the fork starts from; -1: an empty thread. */
  atStep: number;
  /** The new thread's id (default: a new random one); it must not exist. */
  threadId?: string;
  /** An update applied to the fork's state, through the channels' reducers. */
  update?: Record<string, unknown>;
}

/** Entries after which a thread is at a super-step's boundary: where a fork may start. */
const forkableKinds = new Set<CheckpointEntry['kind']>(['input', 'node', 'end', 'fork']);

/** The thread's step number of an entry: 0, 1, 2, … per thread, across runs. */
export const stepOf = (entry: { seq: number }): number => entry.seq - 1;

/**
 * Makes a new thread from the state after step `atStep` of `threadId`, leaving it untouched:
 * the new thread holds a copy of the entries up to that step (owned by no process, so a run
 * it was inside is paused there and `resume` continues it) and a `fork` entry with
 * `update` and where it came from. On a thread whose older entries retention folded into a
 * base snapshot, the fork holds that base and the entries after it (numbered from the
 * base on). Refuses a step inside a super-step or folded into the base, naming the
 * nearest steps that can be forked.
 */
export async function forkThread(
  store: ThreadStore,
  schema: StateSchema,
  threadId: string,
  options: ForkOptions,
  newThreadId: string,
): Promise<void> {
  const log = await store.checkpointer.read(threadId, 0);
  if (log.base === null && log.entries.length === 0) throw new ThreadNotFoundError({ threadId });
  const atStep = options.atStep;
  const lastStep = stepOf(log.entries.at(-1) ?? (log.base as { seq: number }));
  // Retention folded the entries up to the base into one snapshot: the state after its
  // last entry (the end of a run) is known, the states before it are not.
  const baseStep = log.base === null ? -1 : log.base.seq - 1;
  const forkable = [
    baseStep,
    ...log.entries.filter((entry) => forkableKinds.has(entry.kind)).map(stepOf),
  ];
  const refuse = (reason: string): never => {
    const below = forkable.filter((step) => step < atStep).at(-1);
    const above = forkable.find((step) => step > atStep);
    const nearest = [below, above].filter((step) => step !== undefined) as number[];
    throw new ForkPointError({ threadId, atStep, reason, nearest });
  };
  if (!Number.isInteger(atStep) || atStep < -1 || atStep > lastStep) {
    refuse(`steps go from -1 to ${lastStep}`);
  }
  if (atStep < baseStep) refuse('retention folded that step away');
  if (!forkable.includes(atStep)) {
    refuse('it is inside a super-step (only the entry that completes one can be forked)');
  }
  const prepared = prepareUpdate(schema, options.update, '(fork)');
  if ((await store.checkpointer.read(newThreadId, 0)).entries.length > 0) {
    throw new ThreadExistsError({ threadId: newThreadId });
  }
  const copied = log.entries.filter((entry) => entry.seq <= atStep + 1);
  const point = copied.at(-1);
  // A compacted thread's fork starts with one entry standing for the base, which the
  // base snapshot replaces once everything is written: its own steps start after it.
  const shift = log.base === null ? 0 : log.base.seq - 1;
  const entries: CheckpointEntry[] = copied.map((entry) => ({
    ...entry,
    threadId: newThreadId,
    seq: entry.seq - shift,
    owner: null,
  }));
  if (log.base !== null) entries.unshift(baseStandIn(newThreadId, log.base.createdAt));
  entries.push({
    threadId: newThreadId,
    seq: entries.length + 1,
    runId: point?.runId ?? createId(),
    kind: 'fork',
    node: null,
    step: point?.step ?? 0,
    update: prepared ?? null,
    next: point?.next ?? null,
    status: point?.status ?? 'done',
    error: point?.error ?? null,
    createdAt: Date.now(),
    owner: null,
    payload: { interrupts: [], answered: [], forkedFrom: { threadId, step: atStep } },
  });
  try {
    for (const entry of entries) await store.checkpointer.append(entry);
    if (log.base !== null) {
      await store.checkpointer.compact(newThreadId, { ...log.base, seq: 1 });
    }
  } catch (error) {
    if (error instanceof CheckpointConflictError && error.seq === 1) {
      throw new ThreadExistsError({ threadId: newThreadId });
    }
    throw error;
  } finally {
    store.forget(newThreadId);
  }
}

/** The first entry of a compacted thread's fork, folded into the base snapshot right after. */
function baseStandIn(threadId: string, createdAt: number): CheckpointEntry {
  return {
    threadId,
    seq: 1,
    runId: createId(),
    kind: 'end',
    node: null,
    step: 0,
    update: null,
    next: null,
    status: 'done',
    error: null,
    createdAt,
    owner: null,
    payload: null,
  };
}
