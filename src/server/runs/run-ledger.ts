import type { AgentResponse } from '../../agents/index.ts';
import type { WebhookDelivery } from '../../webhooks/index.ts';
import { errorResponse } from '../http/http-error.ts';
import {
  type CancelReason,
  endedRunStatuses,
  goingRunStatuses,
  type RunChanges,
  type RunError,
  type RunRecord,
  type RunStatus,
  type RunStore,
  withChanges,
} from './run-store.ts';
import type { RunStream } from './run-streams.ts';
import { deliveryOfRunEvent } from './run-webhooks.ts';

/**
 * What other parts hear of runs: the webhook layer subscribes here. `onRunEnded` hears each
 * run of this process that pauses for approval (`interrupted`) or ends (`done`, `failed`,
 * `cancelled`), its record as stored, with the webhook delivery stored with it (if any).
 * Returns the unsubscribe.
 */
export interface RunEvents {
  onRunEnded(listener: RunEndListener): () => void;
}

/** Hears a run's pause or end, and the webhook delivery stored in the same write. */
export type RunEndListener = (run: RunRecord, delivery: WebhookDelivery | undefined) => void;

/**
 * How a run's pause or end is written: as a new record (`create`, for a run that ended
 * before its start was stored), or only while its status is one of `onlyFrom` and, with
 * `onlyInstance`, that instance has it (a compare-and-set: nobody hears of a lost one).
 */
export interface EndWrite {
  create?: boolean;
  onlyFrom?: readonly RunStatus[];
  onlyInstance?: string;
}

/** A run going in this process: its events, and how to stop it. */
interface LiveRun {
  sessionId: string;
  stream: RunStream | undefined;
  cancel(reason: CancelReason): void;
}

/**
 * How long a started run's record waits before it is stored: a run that ends sooner is
 * stored once, as it ended (one write instead of two for a quick answer).
 */
const startWriteDelayMs = 100;

/** What a run's end looks like in its record. */
export function endingOf(
  payload: AgentResponse,
): Pick<RunChanges, 'status' | 'result' | 'error' | 'cancelReason'> {
  if (payload.status === 'interrupted') return { status: 'interrupted', result: payload };
  if (payload.status === 'cancelled') {
    return {
      status: 'cancelled',
      result: payload,
      cancelReason: payload.cancelReason ?? { type: 'request' },
    };
  }
  if (payload.status === 'error') {
    return {
      status: 'failed',
      result: payload,
      error: { code: payload.errorCode ?? 'run_failed', message: payload.response },
    };
  }
  return { status: 'done', result: payload };
}

/** A run's failure as its record says it (the code and message its HTTP error would have). */
export function failureOf(error: unknown): RunError {
  const { body } = errorResponse(error);
  return { code: body.error.code, message: body.error.message };
}

/**
 * The runs of this server: their records in the store (one write when a run starts, one when
 * it pauses or ends), the ones going in this process (to stream, wait on and cancel), and who
 * hears of their ends (`RunEvents`).
 */
export class RunLedger implements RunEvents {
  readonly store: RunStore;
  /** This instance (as `GET /api/agent/status` names it): who runs the runs it starts. */
  readonly instanceId: string;
  #live = new Map<string, LiveRun>();
  #changed = new Map<string, Set<() => void>>();
  #endListeners = new Set<RunEndListener>();
  #onError: (error: unknown) => void;

  constructor(store: RunStore, instanceId: string, onError: (error: unknown) => void) {
    this.store = store;
    this.instanceId = instanceId;
    this.#onError = onError;
  }

  onRunEnded(listener: RunEndListener): () => void {
    this.#endListeners.add(listener);
    return () => this.#endListeners.delete(listener);
  }

  /** Notes a run going in this process until the returned function is called. */
  track(runId: string, live: LiveRun): () => void {
    this.#live.set(runId, live);
    return () => {
      if (this.#live.get(runId) === live) this.#live.delete(runId);
    };
  }

  /** The run going in this process with this id. */
  live(runId: string): LiveRun | undefined {
    return this.#live.get(runId);
  }

  /**
   * Stops a run going in this process; false when it is not here. `reason` is what its
   * record and its answer say.
   */
  cancel(runId: string, reason: CancelReason): boolean {
    const live = this.#live.get(runId);
    if (live === undefined) return false;
    live.cancel(reason);
    return true;
  }

  /** The ids of the runs of a session going (or waiting for their turn) in this process, oldest first. */
  liveOf(sessionId: string): string[] {
    return [...this.#live].flatMap(([runId, live]) =>
      live.sessionId === sessionId ? [runId] : [],
    );
  }

  /** Stores a new run's record (false when its id or schedule slot is taken). */
  async create(run: RunRecord): Promise<boolean> {
    const created = await this.store.create(run);
    if (created) this.#notify(run);
    return created;
  }

  /**
   * Stores a run's start: a new record (`run`), or the change of the record that exists
   * (a background run's, or a paused run resumed) to `running`.
   */
  async started(run: RunRecord, existed: boolean): Promise<void> {
    const change = {
      status: 'running' as const,
      startedAt: run.startedAt,
      instanceId: this.instanceId,
      ...(run.message === undefined ? {} : { message: run.message }),
      // A paused run resumed by a client streaming other modes follows that client's.
      ...(run.stream === undefined ? {} : { stream: run.stream }),
    };
    try {
      // A paused run's record may predate records: then it is made now.
      const changed =
        existed &&
        (await this.store.update(run.runId, change, [...goingRunStatuses, 'interrupted']));
      if (changed || (await this.store.create(run))) this.#notify(withChanges(run, change));
    } catch (error) {
      this.#onError(error);
    }
  }

  /**
   * Stores how a run paused or ended, with its webhook delivery in the same write, and tells
   * who listens. False when a compare-and-set (`how.onlyFrom`, `how.onlyInstance`) lost.
   */
  async ended(run: RunRecord, changes: RunChanges, how: EndWrite = {}): Promise<boolean> {
    const next = withChanges(run, { endedAt: new Date().toISOString(), ...changes });
    if (next.status === 'interrupted') next.endedAt = null;
    const delivery = deliveryOfRunEvent(next);
    const guarded = how.onlyFrom !== undefined || how.onlyInstance !== undefined;
    let stored = false;
    try {
      // `create`: a run that ended before its start was stored is stored once, as it ended.
      stored = how.create === true && (await this.store.create(next, delivery));
      if (!stored) {
        const change = { status: next.status, endedAt: next.endedAt, ...changes };
        stored = await this.store.update(
          run.runId,
          change,
          how.onlyFrom,
          how.onlyInstance,
          delivery,
        );
      }
    } catch (error) {
      this.#onError(error);
    }
    if (guarded && !stored) return false;
    this.#notify(next);
    for (const listener of this.#endListeners) {
      try {
        listener(next, stored ? delivery : undefined);
      } catch (error) {
        this.#onError(error);
      }
    }
    return stored;
  }

  /**
   * The record of one run as it goes: `start` notes it started, and its record is stored (or,
   * `existed`, the stored one changed to `running`) a moment later, without the run waiting on
   * it; `end` stores its pause or end after that — or, for a run that ended within that moment,
   * the run as it ended in one write.
   */
  recorder(base: RunRecord, existed: boolean) {
    let startedAt: string | undefined;
    let startWrite: Promise<void> | undefined;
    let timer: NodeJS.Timeout | undefined;
    const running = (): RunRecord => ({
      ...base,
      status: 'running',
      startedAt: startedAt ?? null,
      instanceId: this.instanceId,
    });
    const write = (): void => {
      timer = undefined;
      startWrite ??= this.started(running(), existed);
    };
    return {
      start: (): void => {
        if (startedAt !== undefined) return;
        startedAt = new Date().toISOString();
        timer = setTimeout(write, startWriteDelayMs);
        timer.unref();
      },
      /** Whether `start` was called. */
      started: () => startedAt !== undefined,
      end: async (changes: RunChanges): Promise<void> => {
        startedAt ??= new Date().toISOString();
        if (startWrite !== undefined) {
          await startWrite;
          await this.ended(running(), changes);
          return;
        }
        clearTimeout(timer);
        timer = undefined;
        const run = running();
        if (!existed) {
          await this.ended(run, changes, { create: true });
          return;
        }
        const { startedAt: at, instanceId, message, stream } = run;
        await this.ended(run, {
          startedAt: at,
          instanceId,
          ...(message === undefined ? {} : { message }),
          ...(stream === undefined ? {} : { stream }),
          ...changes,
        });
      },
    };
  }

  /**
   * The run once it is no longer `queued` or `running`, or after `ms` as it is then; undefined
   * when there is none. Runs of other instances are read again each second.
   */
  async settled(runId: string, ms: number): Promise<RunRecord | undefined> {
    const deadline = Date.now() + ms;
    for (;;) {
      const run = await this.store.get(runId);
      const remaining = deadline - Date.now();
      if (run === undefined || !goingRunStatuses.includes(run.status) || remaining <= 0) {
        return run;
      }
      await this.nextChange(runId, Math.min(remaining, 1_000));
    }
  }

  /** Resolves at the run's next change in this process, or after `ms`. */
  nextChange(runId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const listeners = this.#changed.get(runId) ?? new Set();
      this.#changed.set(runId, listeners);
      const done = () => {
        clearTimeout(timer);
        listeners.delete(done);
        if (listeners.size === 0 && this.#changed.get(runId) === listeners) {
          this.#changed.delete(runId);
        }
        resolve();
      };
      const timer = setTimeout(done, ms);
      listeners.add(done);
    });
  }

  #notify(run: RunRecord): void {
    for (const listener of [...(this.#changed.get(run.runId) ?? [])]) listener();
  }
}

/** Whether a run's status is one it ends with. */
export function hasEnded(status: RunStatus): boolean {
  return endedRunStatuses.includes(status);
}
