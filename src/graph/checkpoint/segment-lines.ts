import type { CheckpointEntry, EntryKind, EntryPayload, RunStatus } from './types.ts';

/**
 * One entry as a line of a segment: a JSON array in a fixed order, without the thread id
 * (the segment's row has it) and without field names, so that a step costs what it changed
 * plus a few bytes. `JSON.stringify` never writes a raw line break, so lines join with `\n`.
 */
export function entryLine(entry: CheckpointEntry): string {
  return JSON.stringify([
    entry.seq,
    entry.runId,
    entry.kind,
    entry.node,
    entry.step,
    entry.update,
    entry.next,
    entry.status,
    entry.error,
    entry.createdAt,
    entry.owner,
    entry.payload,
  ]);
}

type Line = [
  number,
  string,
  EntryKind,
  string | null,
  number,
  Record<string, unknown> | null,
  string | null,
  RunStatus,
  CheckpointEntry['error'],
  number,
  string | null,
  EntryPayload | null,
];

/** The entries of a segment's lines (one JSON parse for the whole segment). */
export function segmentEntries(threadId: string, data: string): CheckpointEntry[] {
  const lines = JSON.parse(`[${data.replaceAll('\n', ',')}]`) as Line[];
  return lines.map((line) => ({
    threadId,
    seq: line[0],
    runId: line[1],
    kind: line[2],
    node: line[3],
    step: line[4],
    update: line[5],
    next: line[6],
    status: line[7],
    error: line[8],
    createdAt: line[9],
    owner: line[10],
    payload: line[11],
  }));
}
