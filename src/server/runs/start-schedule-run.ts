import { createId } from '../../core/index.ts';
import { type Admission, ownerOfKey } from '../../identity/index.ts';
import type { Schedule } from '../../schedules/index.ts';
import type { RouteContext } from '../routes/route-context.ts';
import { firstMessageTitle } from '../runtime/first-message-title.ts';
import { admitOwner } from './admit-run.ts';
import { failureOf } from './run-ledger.ts';
import type { AgentCall } from './run-request.ts';
import type { RunRecord } from './run-store.ts';
import { startBackgroundRun } from './start-background-run.ts';

/** Which run a schedule starts: its id (the slot's claim) and the slot, if any. */
export interface ScheduleRunSlot {
  runId: string;
  /** The slot (epoch milliseconds); null for a run started by hand. */
  scheduledFor: number | null;
  catchUp?: boolean;
  /** A run started by hand: its request, counted by its route; a firing is counted here. */
  admission?: Admission;
}

/** The codes of a firing refused at once: kept as a failed run with that code. */
const refusedCodes = new Set(['session_busy', 'rate_limited', 'budget_exceeded']);

/**
 * Starts a schedule's run as `POST /api/runs` would, owned by the schedule's owner: its
 * message, graph and options, on its session (made at the first firing) or a new one; it is
 * a run request of that owner, counted against the owner's limits, and follows the schedule's
 * `onBusy`. A firing refused at once (`reject` on a busy session, the session's line full, or
 * a limit reached) is kept as a run `failed` with its reason (`session_busy`, `rate_limited`,
 * `budget_exceeded`). Returns the run's record; undefined when the slot has a run already.
 * @example
 * const run = await startScheduleRun(context, schedule, { runId, scheduledFor: slot });
 */
export async function startScheduleRun(
  context: RouteContext,
  schedule: Schedule,
  slot: ScheduleRunSlot,
): Promise<RunRecord | undefined> {
  const { runtime } = context;
  const sessionId = schedule.sessionId ?? createId();
  const owner = schedule.owner;
  const options = { ...schedule.options, graph: schedule.graph } as AgentCall['options'];
  const title = firstMessageTitle(runtime, schedule.graph, schedule.message);
  await runtime.sessions.claim(sessionId, owner, title, schedule.graph);
  const call: AgentCall = {
    sessionId,
    owner,
    message: schedule.message,
    options,
    onBusy: schedule.onBusy,
  };
  const started = {
    source: 'schedule',
    runId: slot.runId,
    scheduleId: schedule.id,
    scheduledFor: slot.scheduledFor === null ? null : new Date(slot.scheduledFor).toISOString(),
    ...(slot.catchUp === undefined ? {} : { catchUp: slot.catchUp }),
    ...(schedule.webhook === null ? {} : { webhook: schedule.webhook }),
    // A cron's metadata is its runs' (as LangGraph's crons assign theirs).
    ...(Object.keys(schedule.metadata).length === 0 ? {} : { metadata: schedule.metadata }),
  };
  let admission: Admission | undefined;
  try {
    admission =
      slot.admission ?? (await admitOwner(context, owner, isAdminKeyOwner(context, owner)));
    return await startBackgroundRun(context, call, { ...started, admission });
  } catch (error) {
    // A run that was not started counts nothing.
    await (admission ?? slot.admission)?.refund();
    const failure = failureOf(error);
    if (!refusedCodes.has(failure.code)) throw error;
    const now = new Date().toISOString();
    const record: RunRecord = {
      runId: slot.runId,
      sessionId,
      owner,
      status: 'failed',
      source: 'schedule',
      graph: schedule.graph,
      message: schedule.message,
      createdAt: now,
      startedAt: null,
      endedAt: now,
      attempts: 1,
      instanceId: context.runs.instanceId,
      scheduleId: schedule.id,
      scheduledFor: started.scheduledFor,
      ...(slot.catchUp === undefined ? {} : { catchUp: slot.catchUp }),
      ...(schedule.webhook === null ? {} : { webhook: schedule.webhook }),
      ...(started.metadata === undefined ? {} : { metadata: started.metadata }),
    };
    await context.runs.ended(record, { status: 'failed', error: failure }, { create: true });
    return { ...record, error: failure };
  }
}

/** Whether `owner` is an admin key's: its firings are counted, never refused. */
function isAdminKeyOwner(context: RouteContext, owner: string): boolean {
  const admins = context.runtime.config.env.YEOUL_ADMIN_KEYS ?? [];
  return admins.some((key) => ownerOfKey(key) === owner);
}
