import type { FastifyReply } from 'fastify';
import {
  type AgentRequest,
  type AgentResponse,
  type AgentRunner,
  graphNameOf,
} from '../../agents/index.ts';
import { createId, StoreUnavailableError } from '../../core/index.ts';
import { PendingRunError, RunSupersededError } from '../../graph/index.ts';
import type { Admission } from '../../identity/index.ts';
import { errorResponse } from '../http/http-error.ts';
import { coalesceTokens } from '../http/token-coalescer.ts';
import type { RouteContext } from '../routes/route-context.ts';
import type { LeaveQueue } from '../sessions/session-queue.ts';
import { applyOnBusy, type OnBusy } from './apply-on-busy.ts';
import { guardsInput } from './guards-input.ts';
import { endingOf, failureOf } from './run-ledger.ts';
import type { CancelReason, RunChanges, RunRecord, RunStreamChoice } from './run-store.ts';
import { RunStream, type StreamEvent } from './run-streams.ts';

/** The stream events clients get (`evaluation` stays inside the payload). */
const streamedEvents = new Set([
  'step',
  'token',
  'tool-call',
  'tool-result',
  'interrupt',
  'guardrail',
  'error',
  'done',
]);

/** One agent request as an HTTP surface hands it over (the session already claimed or checked). */
export type AgentCall = Pick<
  AgentRequest,
  | 'message'
  | 'messageId'
  | 'runConfig'
  | 'history'
  | 'resume'
  | 'options'
  | 'owner'
  | 'clientTools'
  | 'instructions'
> & {
  sessionId: string;
  /** What the message does when the session is busy (`applyOnBusy`; default enqueue). */
  onBusy?: OnBusy;
};

/** How a surface runs the request: cancellation, token streaming, and who sees its events. */
export interface AgentCallOptions {
  signal?: AbortSignal;
  streamTokens: boolean;
  /** Every recorded event, as it happens (after it is numbered for joiners). */
  onEvent?: (entry: StreamEvent) => void;
  /**
   * The id a streamed answer is stored under, before its first `token` (an `answer-start`
   * event, in order with the others; never sent to clients of the run's stream).
   */
  onAnswerStart?: (messageId: string) => void;
  /** The runner to run on (default the runtime's): `/v1`'s in-memory one for stateless calls. */
  runner?: AgentRunner;
  /** When the HTTP request arrived (`arrivalOf(reply)`): its place in the session's line. */
  arrivedAt?: number;
  /**
   * The request as counted against its owner's limits (`admitRun`): settled here, the run's
   * usage counted before `done` goes out, or the request taken back when its run never began.
   */
  admission?: Admission;
  /**
   * What started the run (`invoke`, `stream`, `api`, `v1`, `mcp`, `graph`, `eval`, …): its
   * record's `source`. Unset: no record is kept.
   */
  source?: string;
  /** The record a background run was stored with before it started (`startBackgroundRun`). */
  record?: RunRecord;
  /** The id of a new run, chosen by its caller (that names it before it starts); a new one otherwise. */
  runId?: string;
  /** What the caller attached to the run (kept with its record). */
  metadata?: Record<string, unknown>;
  /** What its client streams (kept with its record). */
  stream?: RunStreamChoice;
  /** The run's place in its session's line, taken already (else it is taken here). */
  leave?: LeaveQueue;
  /** Why the run stopped when `signal` aborted (default: cancelled through the API). */
  cancelReason?: () => CancelReason | undefined;
  /** Resumes the run a stopped server left going on the session (from its last committed step). */
  pickUp?: boolean;
}

/** When the request answered by `reply` reached the server (a `performance.now()` time). */
export function arrivalOf(reply: FastifyReply): number {
  return performance.now() - reply.elapsedTime;
}

/**
 * Takes the request's place in its session's line (409 when the line is full, which takes
 * back its admission: a refused request counts nothing). In one process the place is taken at
 * once; across instances it is awaited.
 */
export async function takePlace(
  context: RouteContext,
  sessionId: string,
  arrivedAt: number | undefined,
  admission: Admission | undefined,
): Promise<LeaveQueue> {
  try {
    const entered = context.queue.enter(sessionId, arrivedAt);
    return entered instanceof Promise ? await entered : entered;
  } catch (error) {
    await admission?.refund();
    throw error;
  }
}

/**
 * Runs one request for /api, /v1 or MCP alike: counted against the session's queue bound
 * (409 beyond it), its events numbered `<runId>:<n>` and kept for clients that join the run
 * (`GET /api/sessions/:id/stream`, `GET /api/runs/:id/stream`), the `done` event recorded,
 * the run counted in the metrics (runs, duration, tokens, tools, interrupts, decisions), and,
 * given a `source`, its record stored: once when it starts, once when it pauses or ends.
 */
export async function runAgentCall(
  context: RouteContext,
  call: AgentCall,
  options: AgentCallOptions,
): Promise<AgentResponse> {
  const { metrics, runtime } = context;
  const { admission } = options;
  // A stateless /v1 call runs on its own in-memory runner under a throwaway id: nobody can
  // queue behind it or join it, so it takes no place in the (shared) queue and its events
  // are not relayed.
  const shared = options.runner === undefined;
  // Decisions go on under the paused run's id.
  const runId =
    options.record?.runId ??
    options.runId ??
    (call.resume && shared ? await runtime.runner.lastRunId(call.sessionId) : undefined) ??
    createId();
  const { onBusy: _onBusy, ...asked } = call;
  if (shared && options.leave === undefined) {
    await applyOnBusy(context, call, runId).catch(async (error: unknown) => {
      await admission?.refund();
      throw error;
    });
  }
  // Until its turn comes the run can be superseded too: it then starts stopped.
  let supersededWhileWaiting: CancelReason | undefined;
  const untrackWaiting = shared
    ? context.runs.track(runId, {
        sessionId: call.sessionId,
        stream: undefined,
        cancel: (reason) => {
          supersededWhileWaiting ??= reason;
        },
      })
    : () => undefined;
  const leave = await (async () => {
    try {
      return (
        options.leave ??
        (shared ? await takePlace(context, call.sessionId, options.arrivedAt, admission) : () => {})
      );
    } finally {
      untrackWaiting();
    }
  })();
  // A paused run going on numbers its events past its earlier part's (seconds since 1970:
  // later than any number that part reached, and within the relay's integer column).
  const goesOn = call.resume || options.pickUp || (options.record?.attempts ?? 1) > 1;
  const firstN = goesOn ? Math.floor(Date.now() / 1000) : 1;
  const stream = shared
    ? context.streams.open(call.sessionId, runId, firstN)
    : new RunStream(runId, call.sessionId, () => undefined);
  const record =
    shared && options.source !== undefined
      ? recordOf(context, asked, runId, options, stream)
      : undefined;
  if (supersededWhileWaiting !== undefined) context.runs.cancel(runId, supersededWhileWaiting);
  const started = performance.now();
  // The answer the tokens belong to: announced by `answer-start`, until a node starts or ends.
  let answerId: string | undefined;
  const events = coalesceTokens((name, data) => {
    if (name === 'input-checked') record?.checked((data as { message: string }).message);
    if (name === 'answer-start') {
      answerId = (data as { id: string }).id;
      options.onAnswerStart?.(answerId);
    }
    if (name === 'step') answerId = undefined;
    if (!streamedEvents.has(name)) return;
    record?.start();
    const entry = stream.push(name, data, name === 'token' ? answerId : undefined);
    options.onEvent?.(entry);
  });
  let failure: unknown;
  try {
    const signal = record ? record.signal : options.signal;
    const answer = options.pickUp
      ? await runtime.runner.resumeInterrupted(call.sessionId, {
          ...(signal === undefined ? {} : { signal }),
          ...(call.runConfig === undefined ? {} : { runConfig: call.runConfig }),
          onEvent: events.emit,
        })
      : await invokeClosingLeftBehind(context, call.sessionId, shared, () =>
          (options.runner ?? runtime.runner).invoke({
            ...asked,
            runId,
            ...(signal === undefined ? {} : { signal }),
            streamTokens: options.streamTokens,
            onEvent: events.emit,
          }),
        );
    events.flush();
    const payload =
      answer.status === 'cancelled' && record
        ? { ...answer, cancelReason: record.reason() }
        : answer;
    // Counted before `done` goes out: a client that has the answer finds it in its usage.
    await admission?.finish(payload.usage);
    for (const decision of call.resume?.decisions ?? []) {
      metrics.decisions.inc({ decision: decision.approve ? 'approve' : 'deny' });
    }
    for (const pending of payload.interrupts ?? []) metrics.interrupts.inc({ tool: pending.tool });
    metrics.observeRun({
      ...payload,
      graph: graphNameOf(call.options),
      executionTime: (performance.now() - started) / 1000,
    });
    // Stored before `done` goes out: a client that has the answer finds the run ended.
    await record?.end(endingOf(payload));
    // Pushed whoever listens: joiners of the run get it too.
    const done = stream.push('done', payload);
    options.onEvent?.(done);
    // An answer that says the store went away may have left its run's end unwritten: the
    // session's line stays taken until that end is stored, as for a run that threw.
    if (payload.errorCode === 'store_unavailable') {
      failure = new StoreUnavailableError({ store: 'state', reason: 'the run reported it' });
    }
    return payload;
  } catch (error) {
    failure = error;
    events.flush();
    // A run that had started tells its watchers how it failed; a refused one never began
    // and counts nothing.
    const began = stream.events.length > 0;
    await (began ? admission?.finish() : admission?.refund());
    if (began || options.record) await record?.end({ status: 'failed', error: failureOf(error) });
    if (began) {
      const { body } = errorResponse(error);
      metrics.errors.inc({ code: body.error.code });
      const failed = stream.push('error', body.error);
      options.onEvent?.(failed);
    }
    throw error;
  } finally {
    record?.untrack();
    if (shared) context.streams.finish(stream);
    leave(failure);
  }
}

/**
 * A run's record as it goes: made (or, for a background run, changed to `running`) when its
 * first event comes, without waiting; its end stored after that write. The run is tracked in
 * this process meanwhile, so that it can be cancelled by id with a reason.
 */
function recordOf(
  context: RouteContext,
  call: AgentCall,
  runId: string,
  options: AgentCallOptions,
  stream: RunStream,
) {
  const ledger = context.runs;
  // The caller's signal (a client that left) stops the run as a cancel by id does.
  const controller = new AbortController();
  const given = options.signal;
  const forward = () => controller.abort(given?.reason);
  if (given?.aborted) forward();
  else given?.addEventListener('abort', forward, { once: true });
  const signal = controller.signal;
  let reason: CancelReason | undefined;
  const base: RunRecord = options.record ?? {
    runId,
    sessionId: call.sessionId,
    owner: call.owner ?? 'anonymous',
    status: 'running',
    source: options.source as string,
    graph: graphNameOf(call.options),
    // With input guardrails the message is stored as they leave it (`checked`), never as sent.
    ...(call.message === undefined || guardsInput(context.runtime)
      ? {}
      : { message: call.message }),
    createdAt: new Date().toISOString(),
    startedAt: null,
    endedAt: null,
    attempts: 1,
    instanceId: ledger.instanceId,
    ...(options.metadata === undefined ? {} : { metadata: options.metadata }),
    ...(options.stream === undefined ? {} : { stream: options.stream }),
  };
  const recorder = ledger.recorder(base, options.record !== undefined || call.resume !== undefined);
  const untrackRun = ledger.track(runId, {
    sessionId: call.sessionId,
    stream,
    cancel: (given) => {
      reason ??= given;
      controller.abort(
        given.type === 'superseded'
          ? new RunSupersededError({ byRunId: given.runId, rollback: given.onBusy === 'rollback' })
          : given.type === 'request' && given.rollback === true
            ? // Stopped by request with its steps removed: the superseding path without a successor.
              new RunSupersededError({ byRunId: runId, rollback: true })
            : new Error('cancelled by request'),
      );
    },
  });
  const untrack = () => {
    untrackRun();
    given?.removeEventListener('abort', forward);
  };
  return {
    signal,
    /** The message as the input guardrails left it: what the record shows. */
    checked: (message: string) => {
      base.message = message;
    },
    start: recorder.start,
    untrack,
    /** Why the run was stopped: as it was cancelled here, else as its caller says. */
    reason: (): CancelReason => reason ?? options.cancelReason?.() ?? { type: 'request' },
    /** Stores the run's pause or end (a run that never began has its start stored first). */
    end: async (changes: RunChanges): Promise<void> => {
      if (options.record === undefined || recorder.started()) return recorder.end(changes);
      await ledger.ended(base, changes);
    },
  };
}

/**
 * Runs `invoke`; when it finds the session's last run still marked running by another live
 * instance, although this request holds the session's line (an instance that lost its
 * database may have given up its place without closing its run), that run is closed as left
 * behind and the request runs once more.
 */
async function invokeClosingLeftBehind(
  context: RouteContext,
  sessionId: string,
  shared: boolean,
  invoke: () => Promise<AgentResponse>,
): Promise<AgentResponse> {
  try {
    return await invoke();
  } catch (error) {
    if (!(shared && pendingElsewhere(error))) throw error;
    // Closing it may lose to its own instance closing it at that moment: either way, run again.
    if (!(await context.closeLeftBehind(sessionId).catch(() => true))) throw error;
    return invoke();
  }
}

/** Whether `error` (or one of its causes) says a run goes on the thread in another live process. */
function pendingElsewhere(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    if (current instanceof PendingRunError) return current.live;
    current = current.cause;
  }
  return false;
}
