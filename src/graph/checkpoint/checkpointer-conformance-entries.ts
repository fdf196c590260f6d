import type { CheckpointEntry } from './types.ts';

/** Builds an entry for the suite; only the fields a test cares about need to be given. */
export function entryFor(
  threadId: string,
  seq: number,
  fields: Partial<CheckpointEntry> = {},
): CheckpointEntry {
  return {
    threadId,
    seq,
    runId: 'run-1',
    kind: 'node',
    node: 'agent',
    step: seq,
    update: { messages: [{ id: `m${seq}`, content: `message ${seq}` }] },
    next: 'agent',
    status: 'running',
    error: null,
    createdAt: 1_700_000_000_000 + seq,
    owner: null,
    payload: null,
    ...fields,
  };
}
