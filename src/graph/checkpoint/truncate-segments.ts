import type { PostgresClient } from '../../core/index.ts';
import { entryLine, segmentEntries } from './segment-lines.ts';

interface TruncatedRow extends Record<string, unknown> {
  first_seq: number;
  last_seq: number;
  pending: number;
  sealed: boolean;
  status: string;
  data: string;
}

/**
 * Removes a PostgreSQL thread's entries from `fromSeq` on, inside the caller's transaction:
 * the rows after it go, the row holding it keeps its earlier lines (its last seq, status and
 * run those of its last line kept), and the set of running threads follows the new last
 * entry. False, changing nothing, when no entry is that late or the base snapshot reaches it.
 */
export async function truncateSegments(
  client: PostgresClient,
  threadId: string,
  fromSeq: number,
): Promise<boolean> {
  // The thread's rows locked: an append waits until the truncation is committed.
  const { rows } = await client.query<TruncatedRow>(
    `SELECT first_seq, last_seq, pending, sealed, status, data FROM graph_segments
     WHERE thread_id = $1 ORDER BY first_seq FOR UPDATE`,
    [threadId],
  );
  const base = rows.find((row) => row.first_seq === 0);
  const last = rows.at(-1);
  if (last === undefined || last.last_seq < fromSeq || (base?.last_seq ?? 0) >= fromSeq) {
    return false;
  }
  await client.query('DELETE FROM graph_segments WHERE thread_id = $1 AND first_seq >= $2', [
    threadId,
    fromSeq,
  ]);
  const held = rows.filter((row) => row.first_seq > 0 && row.first_seq < fromSeq).at(-1);
  let lastStatus: string | undefined;
  if (held !== undefined && held.last_seq >= fromSeq) {
    const kept = segmentEntries(threadId, held.data).filter((entry) => entry.seq < fromSeq);
    const keptLast = kept.at(-1);
    if (keptLast !== undefined) {
      const data = kept.map(entryLine).join('\n');
      // An open (unsealed) row counts the bytes of the open rows before it, and its own.
      const before = rows
        .filter((row) => !row.sealed && row.first_seq > 0 && row.first_seq < held.first_seq)
        .at(-1);
      const pending = held.sealed ? 0 : (before?.pending ?? 0) + Buffer.byteLength(data) + 1;
      await client.query(
        `UPDATE graph_segments SET last_seq = $3, updated_at = $4, pending = $5, status = $6,
           run_id = $7, data = $8 WHERE thread_id = $1 AND first_seq = $2`,
        [
          threadId,
          held.first_seq,
          keptLast.seq,
          keptLast.createdAt,
          pending,
          keptLast.status,
          keptLast.runId,
          data,
        ],
      );
      lastStatus = keptLast.status;
    }
  } else {
    lastStatus = held?.status;
  }
  if (lastStatus === 'running') {
    await client.query(
      'INSERT INTO graph_running_threads (thread_id) VALUES ($1) ON CONFLICT DO NOTHING',
      [threadId],
    );
  } else {
    await client.query('DELETE FROM graph_running_threads WHERE thread_id = $1', [threadId]);
  }
  return true;
}
