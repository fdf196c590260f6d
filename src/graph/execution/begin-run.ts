import { createId } from '../../core/index.ts';
import { runsElsewhere } from '../checkpoint/host-identity.ts';
import type { CheckpointEntry } from '../checkpoint/types.ts';
import { CheckpointConflictError } from '../errors/checkpoint-conflict-error.ts';
import { InterruptAnsweredError } from '../errors/interrupt-answered-error.ts';
import { InterruptNotFoundError } from '../errors/interrupt-not-found-error.ts';
import { InvalidRunConfigError } from '../errors/invalid-run-config-error.ts';
import { NotInterruptedError } from '../errors/not-interrupted-error.ts';
import { NothingToResumeError } from '../errors/nothing-to-resume-error.ts';
import { PendingRunError } from '../errors/pending-run-error.ts';
import { RunInterruptedError } from '../errors/run-interrupted-error.ts';
import type { ResumeInfo } from '../interrupt.ts';
import { type NextTasks, nextFields } from '../planning/next-tasks.ts';
import type { Superstep } from '../planning/superstep.ts';
import { applyUpdate, initialState, prepareUpdate } from '../state.ts';
import { RunWriter, type WritableGraph } from '../storage/run-writer.ts';
import type { ThreadRecord, ThreadStore } from '../storage/thread-store.ts';
import { type Durability, START } from '../types.ts';
import { type EndableGraph, endRun } from './end-run.ts';

type Values = Record<string, unknown>;

/** How a run begins: with new input, or by continuing the thread's paused or interrupted run. */
export type RunStart =
  | { kind: 'input'; input: Values }
  | { kind: 'resume'; answers?: Record<string, unknown> };

/** Where a run starts from. */
export interface RunBeginning {
  writer: RunWriter;
  values: Values;
  /** The super-step to run first: the first of a new run, or the one the run stopped in. */
  superstep: Superstep | null;
  /** The answers for the node that paused the run (resume only). */
  resume: ResumeInfo | undefined;
}

/** What a run is opened with. */
interface RunOptions {
  threadId: string | undefined;
  onPendingRun: 'throw' | 'abandon';
  durability: Durability;
  /** The id of a new run (default a new one). */
  runId?: string | undefined;
}

/** What opening a run needs of its graph (a run taken over ends the subgraph runs it was inside). */
type RunGraph = EndableGraph & {
  route(finished: readonly string[], values: Values, joins: Record<string, string[]>): NextTasks;
};

/**
 * Reads the run's thread and opens the run (`beginRun`). On a store whose reads cost a round
 * trip, a new `sync` run on a thread whose last run ended (as this instance knows it) skips
 * the read: its input's append is the compare-and-set that proves the thread did not move,
 * and when it did, the thread is read and the run opened again.
 */
export async function openRun(
  graph: RunGraph,
  start: RunStart,
  options: RunOptions,
): Promise<RunBeginning> {
  const store: ThreadStore | undefined = graph.store;
  const { threadId } = options;
  if (store === undefined || threadId === undefined) {
    return beginRun(graph, undefined, start, options);
  }
  const known =
    start.kind === 'input' && options.durability === 'sync' && store.checkpointer.remoteReads
      ? store.peek(threadId)
      : undefined;
  if (known !== undefined) {
    try {
      return await beginRun(graph, known, start, options);
    } catch (error) {
      if (!(error instanceof CheckpointConflictError)) throw error;
    }
  }
  return beginRun(graph, await store.load(threadId), start, options);
}

/**
 * Opens a run: commits the input (closing first a run its dead process left behind, when
 * asked to), or checks and commits the answers that resume a paused run. Refuses what
 * would break the thread: a run still going elsewhere, questions left unanswered.
 */
export async function beginRun(
  graph: RunGraph,
  record: ThreadRecord | undefined,
  start: RunStart,
  options: RunOptions,
): Promise<RunBeginning> {
  const last = record?.last ?? null;
  const threadId = options.threadId ?? '(none)';
  if (start.kind === 'resume') {
    return beginResume(graph, record, last, start, threadId, options.durability);
  }
  if (last !== null && last.status === 'running') {
    const live = await isLive(graph, last);
    if (live || options.onPendingRun !== 'abandon') {
      throw new PendingRunError({ threadId, runId: last.runId, live });
    }
    await endRun(
      graph,
      new RunWriter(graph.store, record, last.runId),
      (record as ThreadRecord).values,
      last.step,
      {
        status: 'failed',
        error: {
          code: 'run_abandoned',
          message: 'the process running it stopped; a new request took its place',
        },
      },
    );
  }
  if (last !== null && last.status === 'interrupted') {
    throw new RunInterruptedError({ threadId, interrupts: last.payload?.interrupts ?? [] });
  }
  const writer = new RunWriter(
    graph.store,
    record,
    options.runId ?? createId(),
    options.durability,
  );
  const prepared = prepareUpdate(graph.schema, start.input, START);
  const values = applyUpdate(graph.schema, record?.values ?? initialState(graph.schema), prepared);
  const next = graph.route([START], values, {});
  await writer.commit(
    { kind: 'input', node: null, step: 0, update: prepared ?? null, ...nextFields(next) },
    values,
  );
  const superstep =
    next.tasks.length === 0
      ? null
      : { step: 1, tasks: next.tasks, writes: [], finished: [], joins: next.joins };
  return { writer, values, superstep, resume: undefined };
}

async function beginResume(
  graph: WritableGraph,
  record: ThreadRecord | undefined,
  last: CheckpointEntry | null,
  start: { answers?: Record<string, unknown> },
  threadId: string,
  durability: Durability,
): Promise<RunBeginning> {
  const ids = Object.keys(start.answers ?? {});
  if (record === undefined || last === null || last.next === null) {
    if (ids.length > 0) await refuseAnswers(graph, threadId, last, ids);
    throw new NothingToResumeError({ threadId });
  }
  const writer = new RunWriter(graph.store, record, last.runId, durability);
  const resumed = { writer, values: record.values, superstep: record.superstep };
  if (last.status === 'interrupted') {
    const payload = last.payload ?? { interrupts: [], answered: [] };
    if (ids.length === 0) {
      throw new InvalidRunConfigError({
        problems: ['the run is waiting for answers; resume it with at least one'],
      });
    }
    const open = new Set(payload.interrupts.map((pending) => pending.id));
    const again = ids.filter((id) => payload.answered.includes(id));
    if (again.length > 0) throw new InterruptAnsweredError({ threadId, interruptIds: again });
    const unknown = ids.filter((id) => !open.has(id));
    if (unknown.length > 0) throw new InterruptNotFoundError({ threadId, interruptIds: unknown });
    const answers = start.answers as Record<string, unknown>;
    const answered = [...payload.answered, ...ids];
    try {
      // Committed before the run goes on, whatever the durability: a second answer must lose.
      await new RunWriter(graph.store, record, last.runId).commit(
        {
          kind: 'resume',
          node: null,
          step: last.step,
          update: null,
          next: last.next,
          status: 'running',
          payload: { interrupts: payload.interrupts, answered, answers },
        },
        record.values,
      );
    } catch (error) {
      // Another process wrote first: its answer (or its cancel) won the compare-and-set.
      if (error instanceof CheckpointConflictError) {
        throw new InterruptAnsweredError({ threadId, interruptIds: ids });
      }
      throw error;
    }
    return { ...resumed, resume: { interrupts: payload.interrupts, answers, answered } };
  }
  if (last.status !== 'running') {
    if (ids.length > 0) await refuseAnswers(graph, threadId, last, ids);
    throw new NothingToResumeError({ threadId });
  }
  if (ids.length > 0) await refuseAnswers(graph, threadId, last, ids);
  if (await isLive(graph, last)) {
    throw new PendingRunError({ threadId, runId: last.runId, live: true });
  }
  // A process died after answers were given: the paused node runs again with them.
  const resume =
    last.kind === 'resume' && last.payload
      ? {
          interrupts: last.payload.interrupts,
          answers: last.payload.answers ?? {},
          answered: last.payload.answered,
        }
      : undefined;
  return { ...resumed, resume };
}

/** Answers for a run that is not paused: already given (409) or never asked (not interrupted). */
async function refuseAnswers(
  graph: WritableGraph,
  threadId: string,
  last: CheckpointEntry | null,
  ids: string[],
): Promise<never> {
  if (last !== null && graph.store !== undefined) {
    const log = await graph.store.checkpointer.read(threadId, 0);
    const asked = new Set<string>(
      log.entries
        .filter((entry) => entry.runId === last.runId && entry.kind === 'interrupt')
        .flatMap((entry) => (entry.payload?.interrupts ?? []).map((pending) => pending.id)),
    );
    const again = ids.filter((id) => asked.has(id));
    if (again.length > 0) throw new InterruptAnsweredError({ threadId, interruptIds: again });
  }
  throw new NotInterruptedError({ threadId });
}

/** Whether the run that wrote `last` is still going in another live process. */
async function isLive(graph: WritableGraph, last: CheckpointEntry): Promise<boolean> {
  const checkpointer = graph.store?.checkpointer;
  return checkpointer !== undefined && runsElsewhere(checkpointer, last.owner);
}
