/** What a firing does when its session is busy: wait, refuse, or stop the running run (keeping or dropping it). */
export type OnBusy = 'enqueue' | 'reject' | 'interrupt' | 'rollback';

/** A schedule's own fields: what its owner set (defaults filled in). */
export interface ScheduleDefinition {
  name: string | null;
  /** 5 or 6 cron fields. */
  cron: string;
  /** The IANA zone the cron reads its wall clock in. */
  timezone: string;
  message: string;
  graph: string;
  /** The session every firing continues; null for a new session per firing. */
  sessionId: string | null;
  /** The invoke options of each run (no graph, onDisconnect or onBusy). */
  options: Record<string, unknown>;
  onBusy: OnBusy;
  /** The webhook as given (a URL or `{url, headers}`), checked by whoever took it; null for none. */
  webhook: unknown;
  enabled: boolean;
  /** What a client attached to it, kept and shown as given (LangGraph's cron `metadata`). */
  metadata?: Record<string, unknown>;
}

/** A stored schedule. Times are epoch milliseconds. */
export interface Schedule extends ScheduleDefinition {
  metadata: Record<string, unknown>;
  id: string;
  owner: string;
  createdAt: number;
  /** When its definition last changed (firings leave it). */
  updatedAt: number;
  /** The next slot to fire (the runner's cursor); null while disabled. */
  nextRunAt: number | null;
  lastRunAt: number | null;
  lastRunId: string | null;
}

/** What `create` stores: the definition, its owner and its first slot. */
export interface NewSchedule extends ScheduleDefinition {
  owner: string;
  nextRunAt: number | null;
}

/** What `update` changes: any definition field, and the recomputed next slot. */
export type ScheduleUpdate = Partial<ScheduleDefinition> & { nextRunAt?: number | null };

/** A firing to record on its schedule: the run it started, when, and the slot after it. */
export interface ScheduleFiring {
  runId: string;
  firedAt: number;
  /**
   * The next slot, written only while the schedule is as the firing saw it (`updatedAt`
   * unchanged), so a change made meanwhile keeps its own; absent for a run started by hand.
   */
  nextRunAt?: number | null;
}

/**
 * Where schedules live (SQLite in the data folder, PostgreSQL with `DATABASE_URL`), shared by
 * every instance and the CLI. Each schedule belongs to one owner: another owner's is not
 * found, as an unknown one. A slot is claimed once, whichever instance or process asks first.
 * @example
 * const schedule = await store.create({ owner, cron: '0 9 * * *', … , nextRunAt });
 * if (await store.claimSlot(schedule.id, slot, runId)) startTheRun();
 */
export interface ScheduleStore {
  /** Stores a new schedule with a new id. */
  create(schedule: NewSchedule): Promise<Schedule>;
  /** The owner's schedule; undefined for an unknown or another owner's. */
  get(id: string, owner: string): Promise<Schedule | undefined>;
  /** The owner's schedules, newest first. */
  list(owner: string): Promise<Schedule[]>;
  /** Changes the owner's schedule (`updatedAt` now); undefined for an unknown or another owner's. */
  update(id: string, owner: string, changes: ScheduleUpdate): Promise<Schedule | undefined>;
  /** Deletes the owner's schedule and its claims; false for an unknown or another owner's. */
  delete(id: string, owner: string): Promise<boolean>;
  /** Every owner's enabled schedules, for the runner. */
  enabled(): Promise<Schedule[]>;
  /** A number that changes whenever a schedule is created, changed or deleted (firings aside). */
  revision(): Promise<number>;
  /**
   * Claims a slot for a run: true for exactly one caller per (schedule, slot) across
   * instances and processes; false when taken, or when the schedule is gone or disabled.
   */
  claimSlot(scheduleId: string, scheduledFor: number, runId: string): Promise<boolean>;
  /** Records a firing on the schedule (`lastRunAt`, `lastRunId`, maybe `nextRunAt`). */
  recordFiring(schedule: Pick<Schedule, 'id' | 'updatedAt'>, firing: ScheduleFiring): Promise<void>;
  /** Forgets claims made before `before` (no instance claims such old slots again). */
  pruneSlots(before: number): Promise<number>;
}

/** A schedules row as both backends read it. */
export interface ScheduleRow extends Record<string, unknown> {
  id: string;
  owner: string;
  name: string | null;
  cron: string;
  timezone: string;
  message: string;
  graph: string;
  session_id: string | null;
  options: string;
  on_busy: string;
  webhook: string | null;
  enabled: number | boolean;
  metadata: string;
  created_at: number | string;
  updated_at: number | string;
  next_run_at: number | string | null;
  last_run_at: number | string | null;
  last_run_id: string | null;
}

const instant = (value: number | string | null) => (value === null ? null : Number(value));

/** The schedule a row holds. */
export function scheduleOf(row: ScheduleRow): Schedule {
  return {
    id: row.id,
    owner: row.owner,
    name: row.name,
    cron: row.cron,
    timezone: row.timezone,
    message: row.message,
    graph: row.graph,
    sessionId: row.session_id,
    options: JSON.parse(row.options) as Record<string, unknown>,
    onBusy: row.on_busy as OnBusy,
    webhook: row.webhook === null ? null : JSON.parse(row.webhook),
    enabled: row.enabled === true || row.enabled === 1,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    nextRunAt: instant(row.next_run_at),
    lastRunAt: instant(row.last_run_at),
    lastRunId: row.last_run_id,
  };
}

/** The columns `update` writes, by definition field (JSON fields stored as text). */
export const updatableColumns: ReadonlyArray<[keyof ScheduleUpdate, string]> = [
  ['name', 'name'],
  ['cron', 'cron'],
  ['timezone', 'timezone'],
  ['message', 'message'],
  ['graph', 'graph'],
  ['sessionId', 'session_id'],
  ['options', 'options'],
  ['onBusy', 'on_busy'],
  ['webhook', 'webhook'],
  ['enabled', 'enabled'],
  ['metadata', 'metadata'],
  ['nextRunAt', 'next_run_at'],
];

/** A field's value as its column stores it. */
export function columnValue(field: keyof ScheduleUpdate, value: unknown): unknown {
  if (field === 'options' || field === 'metadata') return JSON.stringify(value ?? {});
  if (field === 'webhook')
    return value === null || value === undefined ? null : JSON.stringify(value);
  return value;
}
