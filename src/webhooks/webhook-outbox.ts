import { createId } from '../core/index.ts';
import type { WebhookEvent } from './sign-webhook.ts';

/** The run as a webhook body shows it. */
export interface WebhookRun {
  runId: string;
  sessionId: string;
  status: string;
  source: string;
  scheduleId?: string;
  scheduledFor?: string;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
  cancelReason?: unknown;
  [field: string]: unknown;
}

/** What one event of a run tells its webhook: the run, and its `result` or `error` as the API shows them. */
export interface WebhookPayload {
  run: WebhookRun;
  result?: unknown;
  error?: unknown;
}

/** A delivery to store: the run, the event, where it goes and what it says. */
export interface WebhookEnqueueInput {
  runId: string;
  event: WebhookEvent;
  url: string;
  /** The webhook's own headers: stored, sent with every attempt, never shown. */
  headers: Readonly<Record<string, string>>;
  body: WebhookPayload;
}

/** Where a delivery is: attempts still to make, a 2xx received, or given up. */
export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed';

/** A delivery as the API may show it (never its headers or body); times in epoch milliseconds. */
export interface WebhookDeliveryInfo {
  id: string;
  runId: string;
  event: WebhookEvent;
  url: string;
  state: WebhookDeliveryState;
  attempts: number;
  /** The last attempt's HTTP status; null when none came. */
  lastStatus: number | null;
  lastError?: string;
  /** When the next attempt is due (pending deliveries only). */
  nextAttemptAt?: number;
  deliveredAt?: number;
  createdAt: number;
}

/** A delivery claimed for its next attempt: everything the attempt sends. */
export interface WebhookDelivery extends WebhookDeliveryInfo {
  headers: Record<string, string>;
  /** The exact bytes every attempt sends as the body. */
  body: string;
}

/** What an attempt came to. `at` is when it ended (epoch milliseconds). */
export type WebhookAttemptOutcome =
  | { kind: 'delivered'; status: number; at: number }
  | { kind: 'retry'; status: number | null; error?: string; nextAttemptAt: number }
  | { kind: 'failed'; status: number | null; error?: string };

/**
 * The durable outbox of webhook deliveries (SQLite, or PostgreSQL shared by every instance):
 * a delivery is stored before its first attempt, and each attempt is claimed by exactly one
 * instance, so a restart or crash loses none and two instances never make the same attempt.
 */
export interface WebhookOutbox {
  /** Stores a delivery due at once; its id is new, and its body's bytes are fixed here. */
  enqueue(input: WebhookEnqueueInput, now?: number): Promise<WebhookDelivery>;
  /**
   * Claims up to `limit` pending deliveries due at `now` whose lease is free: each is leased to
   * `instanceId` for `leaseMs`, during which no other claim takes it.
   */
  claimDue(
    now: number,
    limit: number,
    instanceId: string,
    leaseMs: number,
  ): Promise<WebhookDelivery[]>;
  /** Records one attempt's outcome (counting it) and frees the lease. */
  record(id: string, outcome: WebhookAttemptOutcome): Promise<void>;
  /** A run's deliveries, oldest first, without their headers or body. */
  ofRun(runId: string): Promise<WebhookDeliveryInfo[]>;
  /** The earliest time a pending delivery is due (a free lease's), or undefined when none is pending. */
  nextDue(): Promise<number | undefined>;
  /** Deletes a run's deliveries (its session was deleted). */
  deleteRun(runId: string): Promise<void>;
}

/** A new delivery: a new id, and the body's bytes `{id, event, createdAt, run, result?, error?}`. */
export function newDelivery(input: WebhookEnqueueInput, now: number): WebhookDelivery {
  const id = createId();
  const createdAt = new Date(now).toISOString();
  const body = JSON.stringify({ id, event: input.event, createdAt, ...input.body });
  return {
    id,
    runId: input.runId,
    event: input.event,
    url: input.url,
    state: 'pending',
    attempts: 0,
    lastStatus: null,
    nextAttemptAt: now,
    createdAt: now,
    headers: { ...input.headers },
    body,
  };
}

/**
 * A new delivery's values in the order both backends insert them: id, run_id, event, url,
 * headers, body, created_at (next_attempt_at is created_at: due at once).
 */
export function insertValues(
  delivery: WebhookDelivery,
): [string, string, string, string, string, string, number] {
  return [
    delivery.id,
    delivery.runId,
    delivery.event,
    delivery.url,
    JSON.stringify(delivery.headers),
    delivery.body,
    delivery.createdAt,
  ];
}

/** The columns a new delivery is inserted with, in the order of {@link insertValues} (then next_attempt_at). */
export const insertColumns = 'id, run_id, event, url, headers, body, created_at, next_attempt_at';

/** The columns of a delivery as {@link deliveryOf} reads them (never headers or body). */
export const infoColumns =
  'id, run_id, event, url, state, attempts, last_status, last_error, next_attempt_at, delivered_at, created_at';

/** A stored row in the column names both backends use. */
export type DeliveryRow = {
  id: string;
  run_id: string;
  event: string;
  url: string;
  state: string;
  attempts: number | string;
  last_status: number | string | null;
  last_error: string | null;
  next_attempt_at: number | string | null;
  delivered_at: number | string | null;
  created_at: number | string;
  headers?: string;
  body?: string;
};

/** A row as the outbox gives it back (numbers from PostgreSQL's bigint text included). */
export function deliveryOf(row: DeliveryRow): WebhookDeliveryInfo {
  const info: WebhookDeliveryInfo = {
    id: row.id,
    runId: row.run_id,
    event: row.event as WebhookEvent,
    url: row.url,
    state: row.state as WebhookDeliveryState,
    attempts: Number(row.attempts),
    lastStatus: row.last_status === null ? null : Number(row.last_status),
    createdAt: Number(row.created_at),
  };
  if (row.last_error !== null) info.lastError = row.last_error;
  if (row.state === 'pending' && row.next_attempt_at !== null) {
    info.nextAttemptAt = Number(row.next_attempt_at);
  }
  if (row.delivered_at !== null) info.deliveredAt = Number(row.delivered_at);
  return info;
}

/** A claimed row with what its attempt sends. */
export function claimedOf(row: DeliveryRow): WebhookDelivery {
  return {
    ...deliveryOf(row),
    headers: JSON.parse(row.headers ?? '{}') as Record<string, string>,
    body: row.body ?? '',
  };
}

/** The columns an outcome sets: state, status, error, next attempt, delivered time. */
export function outcomeColumns(outcome: WebhookAttemptOutcome) {
  return {
    state: outcome.kind === 'retry' ? 'pending' : outcome.kind,
    lastStatus: outcome.status,
    lastError: outcome.kind === 'delivered' ? null : (outcome.error ?? null),
    nextAttemptAt: outcome.kind === 'retry' ? outcome.nextAttemptAt : null,
    deliveredAt: outcome.kind === 'delivered' ? outcome.at : null,
  };
}
