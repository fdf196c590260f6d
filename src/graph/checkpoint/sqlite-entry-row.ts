import type { CheckpointEntry, EntryKind, EntryPayload, RunStatus } from './types.ts';

/**
 * How the SQLite checkpointer stores one entry, as small as it can be told apart:
 * the thread and seq live in the row's integer key, the status is a small integer, and the
 * rest is one JSON array without field names, trailing defaults left out. Only the first
 * row of a run (an anchor) names the run id, the owner and the time; the rows after it
 * inherit them and keep their time as milliseconds since the anchor.
 */
export interface EntryRow {
  status: number;
  data: string;
  /** Set on anchors only. */
  runId: string | null;
  owner: string | null;
  createdAt: number | null;
}

/** What a row inherits from its anchor. */
export interface Anchor {
  runId: string;
  owner: string | null;
  createdAt: number;
}

const kinds: readonly EntryKind[] = ['input', 'node', 'task', 'interrupt', 'resume', 'end', 'fork'];
const statuses: readonly RunStatus[] = [
  'running',
  'done',
  'interrupted',
  'error',
  'cancelled',
  'failed',
];
const knownFields = new Set([
  'threadId',
  'seq',
  'runId',
  'kind',
  'node',
  'step',
  'update',
  'next',
  'status',
  'error',
  'createdAt',
  'owner',
  'payload',
]);

/**
 * The array's places: kind, step, node, next (0: the same as node), update, milliseconds
 * after the anchor, payload (without its empty `interrupts` and `answered`), error, and any
 * field this version does not know (an object), so that newer fields are kept.
 */
type Line = [
  number,
  number,
  (string | null)?,
  (string | 0 | null)?,
  (Record<string, unknown> | null)?,
  number?,
  (Partial<EntryPayload> | null)?,
  (CheckpointEntry['error'] | null)?,
  (Record<string, unknown> | null)?,
];
const defaults: readonly unknown[] = [undefined, undefined, null, null, null, 0, null, null, null];

/** The row of `entry`; `anchor` is what the row before it (same run, same owner) holds, or null. */
/**
 * Whether `entry` can leave its run id, owner and time to the row of `anchor` before it
 * (same run and owner, not earlier).
 */
export function inheritsFrom(anchor: Anchor | null, entry: CheckpointEntry): anchor is Anchor {
  return (
    anchor !== null &&
    anchor.runId === entry.runId &&
    anchor.owner === entry.owner &&
    entry.createdAt >= anchor.createdAt
  );
}

export function encodeEntry(entry: CheckpointEntry, anchor: Anchor | null): EntryRow {
  const line: unknown[] = [
    kindCode(entry.kind),
    entry.step,
    entry.node,
    entry.next !== null && entry.next === entry.node ? 0 : entry.next,
    entry.update,
    anchor === null ? 0 : entry.createdAt - anchor.createdAt,
    compactPayload(entry.payload),
    entry.error,
    unknownFields(entry),
  ];
  while (line.length > 2 && line.at(-1) === defaults[line.length - 1]) line.pop();
  return {
    status: statusCode(entry.status),
    data: JSON.stringify(line),
    runId: anchor === null ? entry.runId : null,
    owner: anchor === null ? entry.owner : null,
    createdAt: anchor === null ? entry.createdAt : null,
  };
}

/** The entry a row holds, with what it inherits from its anchor. */
export function decodeEntry(
  threadId: string,
  seq: number,
  status: number,
  data: string,
  anchor: Anchor,
): CheckpointEntry {
  const line = JSON.parse(data) as Line;
  const node = line[2] ?? null;
  const next = line[3] === 0 ? node : (line[3] ?? null);
  const entry: CheckpointEntry = {
    threadId,
    seq,
    runId: anchor.runId,
    kind: kinds[line[0]] as EntryKind,
    node,
    step: line[1],
    update: line[4] ?? null,
    next,
    status: statuses[status] as RunStatus,
    error: line[7] ?? null,
    createdAt: anchor.createdAt + (line[5] ?? 0),
    owner: anchor.owner,
    payload: expandPayload(line[6] ?? null),
  };
  return line[8] ? { ...entry, ...line[8] } : entry;
}

/** The status as the small integer stored (running 0 and done 1 cost no byte in SQLite). */
export function statusCode(status: RunStatus): number {
  const code = statuses.indexOf(status);
  if (code < 0) throw new RangeError(`Unknown run status "${status}"`);
  return code;
}

function kindCode(kind: EntryKind): number {
  const code = kinds.indexOf(kind);
  if (code < 0) throw new RangeError(`Unknown entry kind "${kind}"`);
  return code;
}

function compactPayload(payload: EntryPayload | null): Partial<EntryPayload> | null {
  if (payload === null) return null;
  const { interrupts, answered, ...rest } = payload;
  return {
    ...(interrupts.length > 0 ? { interrupts } : {}),
    ...(answered.length > 0 ? { answered } : {}),
    ...rest,
  };
}

function expandPayload(payload: Partial<EntryPayload> | null): EntryPayload | null {
  if (payload === null) return null;
  const { interrupts = [], answered = [], ...rest } = payload;
  return { interrupts, answered, ...rest };
}

function unknownFields(entry: CheckpointEntry): Record<string, unknown> | null {
  let extra: Record<string, unknown> | null = null;
  for (const [name, value] of Object.entries(entry)) {
    if (knownFields.has(name) || value === undefined) continue;
    extra ??= {};
    extra[name] = value;
  }
  return extra;
}

/** A row of `graph_log` as read back. */
export interface LogRow {
  key: number;
  status: number;
  data: string;
  run_id: string | null;
  owner: string | null;
  created_at: number | null;
}

/** A row of `graph_threads`: the thread's number and its base snapshot, if any. */
export interface ThreadRow {
  thread_no: number;
  base_seq: number | null;
  base_json: string | null;
  base_created_at: number | null;
}

/** The run, owner and time a row names itself. */
export function anchorOf(row: LogRow): Anchor {
  return { runId: row.run_id as string, owner: row.owner, createdAt: row.created_at as number };
}
