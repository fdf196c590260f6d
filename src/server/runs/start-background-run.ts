import { graphNameOf } from '../../agents/index.ts';
import { createId } from '../../core/index.ts';
import {
  InterruptAnsweredError,
  InterruptNotFoundError,
  NotInterruptedError,
  RunInterruptedError,
} from '../../graph/index.ts';
import type { Admission } from '../../identity/index.ts';
import type { RouteContext } from '../routes/route-context.ts';
import type { LeaveQueue } from '../sessions/session-queue.ts';
import { applyOnBusy } from './apply-on-busy.ts';
import { guardsInput } from './guards-input.ts';
import { failureOf } from './run-ledger.ts';
import { type AgentCall, runAgentCall } from './run-request.ts';
import type { RunRecord, RunStreamChoice } from './run-store.ts';

/** How a background run is started: what started it, and what its record carries. */
export interface BackgroundRunOptions {
  /** `api` (`POST /api/runs`), `schedule`, … */
  source: string;
  /** The new run's id when its caller chose it (a schedule's slot claim); a new one otherwise. */
  runId?: string;
  /** The webhook as the request gave it (stored with the run). */
  webhook?: unknown;
  scheduleId?: string;
  /** The slot a schedule fires for (ISO UTC); the slot holds one run at most. */
  scheduledFor?: string | null;
  catchUp?: boolean;
  /** The request as counted against its owner's limits (`admitRun`). */
  admission?: Admission;
  /** When the request arrived (`arrivalOf(reply)`): its place in the session's line. */
  arrivedAt?: number;
  /** What the caller attached to the run (kept with its record). */
  metadata?: Record<string, unknown>;
  /** What its client streams (kept with its record). */
  stream?: RunStreamChoice;
}

/**
 * Starts a run that nobody waits on (`POST /api/runs`, a schedule's firing): refused at once
 * as invoke refuses (a pending approval, decisions for a session that is not paused, an
 * unknown interrupt, a full line), else stored `queued` and run in the background through
 * the same path as invoke (the session's line, limits, guardrails), its events kept for
 * `GET /api/runs/:id/stream`. Returns the stored record at once, never waiting for the
 * session's turn; undefined (nothing started) when the schedule slot has a run already.
 * @example
 * const run = await startBackgroundRun(context, { sessionId, owner, message }, { source: 'api' });
 */
export async function startBackgroundRun(
  context: RouteContext,
  call: AgentCall,
  options: BackgroundRunOptions,
): Promise<RunRecord | undefined> {
  const { runtime, runs } = context;
  const newRunId = options.runId ?? createId();
  try {
    await applyOnBusy(context, call, newRunId);
  } catch (error) {
    await options.admission?.refund();
    throw error;
  }
  const paused = await refuseLikeInvoke(context, call);
  const existing = paused === undefined ? undefined : await runs.store.get(paused);
  let entered: ReturnType<typeof context.queue.enter>;
  try {
    // A full line refuses at once; across instances that takes the place's round trip, never
    // the wait for the turn.
    let placed: () => void = () => undefined;
    const place = new Promise<void>((resolve) => {
      placed = resolve;
    });
    entered = context.queue.enter(call.sessionId, options.arrivedAt, () => placed());
    if (entered instanceof Promise) await Promise.race([place, entered]);
  } catch (error) {
    await options.admission?.refund();
    throw error;
  }
  const now = new Date().toISOString();
  // A paused run taken up again by decisions streams what its new client asks for.
  const resumed = (run: RunRecord): RunRecord =>
    options.stream === undefined ? run : { ...run, stream: options.stream };
  const record: RunRecord =
    existing !== undefined
      ? resumed(existing)
      : {
          runId: paused ?? newRunId,
          sessionId: call.sessionId,
          owner: call.owner ?? 'anonymous',
          status: 'queued',
          source: options.source,
          graph: graphNameOf(call.options),
          // With input guardrails the message is stored once they checked it (as the run starts).
          ...(call.message === undefined || guardsInput(runtime) ? {} : { message: call.message }),
          createdAt: now,
          startedAt: null,
          endedAt: null,
          attempts: 1,
          instanceId: runs.instanceId,
          ...(options.scheduleId === undefined ? {} : { scheduleId: options.scheduleId }),
          ...(options.scheduledFor === undefined ? {} : { scheduledFor: options.scheduledFor }),
          ...(options.catchUp === undefined ? {} : { catchUp: options.catchUp }),
          ...(options.webhook === undefined ? {} : { webhook: options.webhook }),
          ...(options.metadata === undefined ? {} : { metadata: options.metadata }),
          ...(options.stream === undefined ? {} : { stream: options.stream }),
          // What a restart needs to start it again (its presence marks a run nobody waits on).
          request: {
            ...(call.options === undefined ? {} : { options: call.options }),
            ...(call.runConfig === undefined ? {} : { runConfig: call.runConfig }),
          },
        };
  const stored =
    existing === undefined
      ? await runs.create(record).catch(async (error) => {
          await leaveAndRefund(entered, options.admission);
          throw error;
        })
      : await runs.store.update(
          record.runId,
          { status: 'queued', ...(record.stream === undefined ? {} : { stream: record.stream }) },
          ['interrupted'],
        );
  if (!stored) {
    await leaveAndRefund(entered, options.admission);
    return undefined;
  }
  void runInBackground(context, call, record, entered, options).catch((error) =>
    runtime.logger.warn({ err: error, runId: record.runId }, 'a background run failed'),
  );
  return existing === undefined ? record : { ...record, status: 'queued' };
}

/**
 * Runs the stored run when its turn comes and a place for background runs is free; a run its
 * line refuses ends `failed`, one cancelled meanwhile never starts.
 */
async function runInBackground(
  context: RouteContext,
  call: AgentCall,
  record: RunRecord,
  entered: LeaveQueue | Promise<LeaveQueue>,
  options: BackgroundRunOptions,
): Promise<void> {
  let leave: LeaveQueue;
  try {
    leave = entered instanceof Promise ? await entered : entered;
  } catch (error) {
    await options.admission?.refund();
    await context.runs.ended(record, { status: 'failed', error: failureOf(error) });
    return;
  }
  const place = await placeFor(context, record);
  // Its turn (through the database) or its place came later: it may have been cancelled meanwhile.
  if (
    place === undefined ||
    ((entered instanceof Promise || place.waited) &&
      (await context.runs.store.get(record.runId))?.status !== 'queued')
  ) {
    place?.release();
    await options.admission?.refund();
    leave();
    return;
  }
  const { onBusy: _applied, ...asked } = call;
  try {
    await runAgentCall(context, asked, {
      streamTokens: true,
      source: record.source,
      record,
      leave,
      ...(options.admission === undefined ? {} : { admission: options.admission }),
    }).catch(() => undefined); // its record says how it failed
  } finally {
    place.release();
  }
}

/**
 * A place among the background runs going at once; while the run waits for one it can be
 * cancelled (by request, or superseded by a newer message), ending `cancelled` without
 * starting: then undefined.
 */
async function placeFor(
  context: RouteContext,
  record: RunRecord,
): Promise<{ waited: boolean; release: () => void } | undefined> {
  const { runs } = context;
  const controller = new AbortController();
  const taken = context.backgroundSlots.take(controller.signal);
  if (!(taken instanceof Promise)) return taken;
  const untrack = runs.track(record.runId, {
    sessionId: record.sessionId,
    stream: undefined,
    cancel: (cancelReason) => {
      controller.abort(new Error('cancelled while queued'));
      void runs.ended(record, { status: 'cancelled', cancelReason }, { onlyFrom: ['queued'] });
    },
  });
  try {
    return await taken;
  } catch {
    return undefined;
  } finally {
    untrack();
  }
}

async function leaveAndRefund(
  entered: LeaveQueue | Promise<LeaveQueue>,
  admission: Admission | undefined,
): Promise<void> {
  await admission?.refund();
  (entered instanceof Promise ? await entered.catch(() => () => undefined) : entered)();
}

/**
 * Refuses at once what invoke would refuse once its turn came: a message on a session that
 * waits for approval, decisions for one that does not, a decision made already (409) or for
 * an unknown interrupt (404).
 * Returns the paused run's id for decisions.
 */
async function refuseLikeInvoke(
  context: RouteContext,
  call: AgentCall,
): Promise<string | undefined> {
  const graph = await context.runtime.runner.threadGraph(call.sessionId);
  const state = await graph.getState(call.sessionId);
  const pending = state?.status === 'interrupted' ? state.interrupts : [];
  if (call.resume === undefined) {
    if (pending.length > 0) {
      throw new RunInterruptedError({ threadId: call.sessionId, interrupts: pending });
    }
    return undefined;
  }
  const known = new Set(pending.map((interrupt) => interrupt.id));
  const unknown = call.resume.decisions
    .map((decision) => decision.id)
    .filter((id) => !known.has(id));
  if (unknown.length > 0) {
    // A call the last run asked about was decided already (409); else it was never asked.
    const asked = new Set(
      (await graph.history(call.sessionId))
        .filter((entry) => entry.runId === state?.runId && entry.kind === 'interrupt')
        .flatMap((entry) => (entry.payload?.interrupts ?? []).map((asked) => asked.id)),
    );
    const again = unknown.filter((id) => asked.has(id));
    const threadId = call.sessionId;
    if (again.length > 0) throw new InterruptAnsweredError({ threadId, interruptIds: again });
    if (pending.length === 0) throw new NotInterruptedError({ threadId });
    throw new InterruptNotFoundError({ threadId, interruptIds: unknown });
  }
  return state?.runId;
}
