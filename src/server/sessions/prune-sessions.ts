import { statSync } from 'node:fs';
import { sessionOfThread } from '../../agents/index.ts';
import { queryPostgres } from '../../core/index.ts';
import { SqliteCheckpointer } from '../../graph/index.ts';
import type { Runtime } from '../runtime/create-runtime.ts';
import { deleteSession } from './delete-session.ts';
import { sessionsOfOwner } from './sessions-of-owner.ts';

/** What a prune did (or, dry, would do). */
export interface PruneReport {
  /** Sessions removed (or that would be). */
  removed: number;
  /** Sessions old enough but kept because a tool call waits for an approval decision. */
  keptAwaitingApproval: number;
  /** Bytes the stores gave back (SQLite: the files' sizes; PostgreSQL: the tables' sizes). */
  bytesBefore: number;
  bytesAfter: number;
  bytesFreed: number;
  dryRun: boolean;
  /** The removed (or to be removed) session ids. */
  sessionIds: string[];
}

const units: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A retention duration (`30d`, `12h`, `15m`, `0s`) in milliseconds; undefined when not one. */
export function parseRetentionDuration(text: string): number | undefined {
  const match = /^\s*(\d{1,9})\s*([smhd])\s*$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * (units[match[2] as string] as number);
}

/** The tables whose rows belong to sessions, in PostgreSQL. */
const postgresTables = [
  'graph_segments',
  'server_sessions',
  'server_run_events',
  'guardrail_vault',
  'server_runs',
];

/**
 * Deletes every session (of `owner`, or of every owner when none is named) idle longer than
 * `olderThanMs`: its thread, its ops thread, its registry row, its guardrail vault, its runs and
 * (PostgreSQL) its relayed events — every table. A session whose run waits for an approval decision is never
 * removed, only counted; one running in this process neither. The SQLite file then gives
 * the space back (incremental vacuum, after a one-time VACUUM that turns it on), and the
 * bytes before and after are reported.
 */
export async function pruneSessions(
  runtime: Runtime,
  options: { olderThanMs: number; dryRun?: boolean; now?: number; owner?: string },
): Promise<PruneReport> {
  const dryRun = options.dryRun === true;
  const cutoff = (options.now ?? Date.now()) - options.olderThanMs;
  // A session is as recent as the newer of its thread and its ops thread, and waits for a
  // decision when either is paused.
  const sessions = new Map<string, { updatedAt: number; awaiting: boolean }>();
  for (const thread of await runtime.checkpointer.listThreads()) {
    const sessionId = sessionOfThread(thread.threadId);
    const known = sessions.get(sessionId) ?? { updatedAt: 0, awaiting: false };
    sessions.set(sessionId, {
      updatedAt: Math.max(known.updatedAt, thread.updatedAt),
      awaiting: known.awaiting || thread.status === 'interrupted',
    });
  }
  const owned =
    options.owner === undefined
      ? undefined
      : await sessionsOfOwner(runtime.sessions, options.owner, [...sessions.keys()]);
  const old = [...sessions].filter(
    ([sessionId, session]) =>
      session.updatedAt <= cutoff &&
      !runtime.runner.isRunning(sessionId) &&
      (owned === undefined || owned.has(sessionId)),
  );
  const expired = old.filter(([, session]) => !session.awaiting).map(([sessionId]) => sessionId);
  const bytesBefore = await storeBytes(runtime);
  if (!dryRun) {
    for (const sessionId of expired) {
      await deleteSession(runtime, sessionId);
      if (runtime.store.backend === 'postgres') {
        await queryPostgres(
          runtime.store.pool,
          'DELETE FROM server_run_events WHERE session_id = $1',
          [sessionId],
        );
      }
    }
    if (expired.length > 0) await reclaimSpace(runtime);
  }
  const bytesAfter = dryRun ? bytesBefore : await storeBytes(runtime);
  return {
    removed: expired.length,
    keptAwaitingApproval: old.length - expired.length,
    bytesBefore,
    bytesAfter,
    bytesFreed: Math.max(bytesBefore - bytesAfter, 0),
    dryRun,
    sessionIds: expired,
  };
}

/** The bytes the session stores take: the SQLite file and its WAL, or the PostgreSQL tables. */
async function storeBytes(runtime: Runtime): Promise<number> {
  const checkpointer = runtime.checkpointer;
  if (checkpointer instanceof SqliteCheckpointer) {
    const path = checkpointer.database.location();
    if (path === null) return 0;
    return [path, `${path}-wal`].reduce((sum, file) => sum + sizeOf(file), 0);
  }
  if (runtime.store.backend !== 'postgres') return 0;
  const { rows } = await queryPostgres<{ bytes: string }>(
    runtime.store.pool,
    'SELECT coalesce(sum(pg_total_relation_size(to_regclass(name))), 0) AS bytes FROM unnest($1::text[]) AS name',
    [postgresTables],
  );
  return Number(rows[0]?.bytes ?? 0);
}

/**
 * Gives freed pages back: SQLite with incremental vacuum (turned on once by a VACUUM, since
 * `auto_vacuum` changes only then), then the WAL truncated; PostgreSQL with VACUUM, which
 * makes the space reusable and returns empty pages at the tables' ends.
 */
async function reclaimSpace(runtime: Runtime): Promise<void> {
  const checkpointer = runtime.checkpointer;
  if (checkpointer instanceof SqliteCheckpointer) {
    const database = checkpointer.database;
    const mode = (database.prepare('PRAGMA auto_vacuum').get() as { auto_vacuum: number })
      .auto_vacuum;
    if (mode !== 2) database.exec('PRAGMA auto_vacuum = INCREMENTAL; VACUUM');
    else database.exec('PRAGMA incremental_vacuum');
    database.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    return;
  }
  if (runtime.store.backend === 'postgres') {
    for (const table of postgresTables) await runtime.store.pool.query(`VACUUM ${table}`);
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
