import type { RunCancelReason } from '../../agents/index.ts';
import type { WebhookDelivery } from '../../webhooks/index.ts';

/** What a run is doing or how it ended. */
export const runStatuses = [
  'queued',
  'running',
  'interrupted',
  'done',
  'failed',
  'cancelled',
] as const;

/** A run's status (`GET /api/runs/:id`). */
export type RunStatus = (typeof runStatuses)[number];

/** The statuses of a run that has ended (nothing changes it after). */
export const endedRunStatuses: readonly RunStatus[] = ['done', 'failed', 'cancelled'];

/** The statuses of a run still going (waiting for its turn, or running). */
export const goingRunStatuses: readonly RunStatus[] = ['queued', 'running'];

/** Why a run was cancelled. */
export type CancelReason = RunCancelReason;

/** A run's failure: the model's (`result.errorCode`), or why it could not finish (`run_lost`). */
export interface RunError {
  code: string;
  message: string;
}

/** The stream modes a run was started with (LangGraph's `stream_mode`), and whether subgraphs' events. */
export interface RunStreamChoice {
  modes: string[];
  subgraphs: boolean;
}

/**
 * One run on a session, as stored and as the API shows it (times ISO, `null` until they
 * happen). `webhook` is the request's webhook as given (its headers never shown).
 */
export interface RunRecord {
  runId: string;
  sessionId: string;
  owner: string;
  status: RunStatus;
  /** What started it: `invoke`, `stream`, `api`, `schedule`, `v1`, `mcp`, `graph`, `eval`, … */
  source: string;
  graph: string;
  /** The request's message; absent for decisions. */
  message?: string;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
  attempts: number;
  /** The instance that runs (or ran) it. */
  instanceId: string;
  scheduleId?: string;
  scheduledFor?: string | null;
  catchUp?: boolean;
  /** The invoke body, once it paused or ended with one. */
  result?: unknown;
  error?: RunError;
  cancelReason?: CancelReason;
  webhook?: unknown;
  /** What the run's caller attached to it (LangGraph's run `metadata`, with `tags`). */
  metadata?: Record<string, unknown>;
  /** What the client that started it streams: a rejoin on any instance that names none follows it. */
  stream?: RunStreamChoice;
  /** The request a background run was started with, to start it again after a restart. */
  request?: unknown;
}

/** Fields a run changes as it goes (the others stay as created). */
export type RunChanges = Partial<
  Pick<
    RunRecord,
    | 'status'
    | 'message'
    | 'startedAt'
    | 'endedAt'
    | 'attempts'
    | 'instanceId'
    | 'result'
    | 'error'
    | 'cancelReason'
    | 'webhook'
    | 'stream'
  >
>;

/** Which runs to list: always one owner's, newest first. */
export interface RunQuery {
  owner: string;
  sessionId?: string;
  scheduleId?: string;
  statuses?: readonly RunStatus[];
  sources?: readonly string[];
  /** At most this many (default 50). */
  limit?: number;
  /** Each with its `result` too (what a task or a response shows); never with its `request`. */
  withResults?: boolean;
}

/**
 * Where runs are recorded: every backend (SQLite in the data folder, PostgreSQL with
 * `DATABASE_URL`) implements it and passes `runStoreConformance`. A schedule's slot
 * (`scheduleId`, `scheduledFor`) holds one run at most: `create` is the claim. A run's pause
 * or end is written with its webhook delivery (`withDelivery`) in one transaction of the same
 * database, so a crash never keeps one without the other.
 * @example
 * await runs.create({ runId, sessionId, owner, status: 'queued', source: 'api', … });
 * await runs.update(runId, { status: 'running', startedAt: new Date().toISOString() });
 */
export interface RunStore {
  /**
   * Stores a new run, and `withDelivery` into the webhook outbox in the same transaction;
   * false (nothing stored) when its id or its schedule slot is taken.
   */
  create(run: RunRecord, withDelivery?: WebhookDelivery): Promise<boolean>;
  /**
   * Changes a stored run; with `onlyFrom`, only while its status is one of them, and with
   * `onlyInstance`, only while that instance has it (a compare-and-set). `withDelivery` is
   * stored in the webhook outbox in the same transaction, when the run changed. True when it
   * changed.
   */
  update(
    runId: string,
    changes: RunChanges,
    onlyFrom?: readonly RunStatus[],
    onlyInstance?: string,
    withDelivery?: WebhookDelivery,
  ): Promise<boolean>;
  /** The run, or undefined when none has this id. */
  get(runId: string): Promise<RunRecord | undefined>;
  /** The owner's runs that match, newest first, each without `request` (and `result`, unless `withResults`). */
  list(query: RunQuery): Promise<RunRecord[]>;
  /** Runs of any owner in these statuses, oldest first (what a restart takes up). */
  inStatus(statuses: readonly RunStatus[]): Promise<RunRecord[]>;
  /** Forgets every run of the session. */
  deleteSession(sessionId: string): Promise<void>;
}

/** A run as a list shows it: without the request it was started with, and its result unless asked. */
export function listedRun(run: RunRecord, withResult = false): RunRecord {
  const { result, request: _request, ...listed } = run;
  return withResult && result !== undefined ? { ...listed, result } : listed;
}

/** A record with `changes` applied (a key set to undefined is removed). */
export function withChanges(run: RunRecord, changes: RunChanges): RunRecord {
  const next: Record<string, unknown> = { ...run };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete next[key];
    else next[key] = value;
  }
  return next as unknown as RunRecord;
}
