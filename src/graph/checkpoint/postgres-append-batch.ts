import {
  isConnectionFailure,
  type PostgresPool,
  poolTarget,
  toStoreError,
} from '../../core/index.ts';
import { CheckpointConflictError } from '../errors/checkpoint-conflict-error.ts';
import { segmentSealBytes } from './postgres-checkpoint-migrations.ts';
import { entryLine } from './segment-lines.ts';
import type { CheckpointEntry } from './types.ts';

interface PendingAppend {
  entry: CheckpointEntry;
  resolve: () => void;
  reject: (error: unknown) => void;
}

const appendSql = {
  name: 'yeoul_graph_append',
  text: 'SELECT yeoul_graph_append($1, $2, $3, $4, $5, $6, $7, $8) AS appended',
};

/**
 * Group commit for PostgreSQL: entries appended in the same turn of the event loop (steps of
 * concurrent runs) go to the server in one call of `yeoul_graph_append`, one statement and one
 * commit, and each caller's promise settles once it has committed. A conflicting entry fails
 * alone (the function reports it instead of raising); should the whole call fail for another
 * reason, its entries are tried one by one so that only the faulty one fails.
 */
export class PostgresAppendBatch {
  #pool: PostgresPool;
  #pending: PendingAppend[] = [];
  #scheduled = false;
  #inFlight = new Set<Promise<void>>();
  #waitForEveryStep: boolean;

  /** `waitForEveryStep`: every commit waits for the WAL on disk, not only a run's last entry's. */
  constructor(pool: PostgresPool, options: { waitForEveryStep?: boolean } = {}) {
    this.#pool = pool;
    this.#waitForEveryStep = options.waitForEveryStep ?? false;
  }

  /** Appends `entry` with the next group; resolves once committed, rejects on a conflict. */
  append(entry: CheckpointEntry): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#pending.push({ entry, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  /** Waits for every group sent so far to settle (before closing the pool). */
  async drain(): Promise<void> {
    while (this.#pending.length > 0 || this.#inFlight.size > 0) {
      if (this.#pending.length > 0) this.#flush();
      await Promise.allSettled([...this.#inFlight]);
    }
  }

  #flush(): void {
    this.#scheduled = false;
    const pending = this.#pending;
    if (pending.length === 0) return;
    this.#pending = [];
    const sent = this.#send(pending).finally(() => this.#inFlight.delete(sent));
    this.#inFlight.add(sent);
  }

  async #send(group: PendingAppend[]): Promise<void> {
    let outcomes: boolean[];
    try {
      outcomes = await this.#call(group.map((item) => item.entry));
    } catch (error) {
      if (group.length > 1 && !isConnectionFailure(error)) {
        // One entry the server refuses (a value it cannot store) must not fail the others.
        await Promise.all(group.map((item) => this.#send([item])));
        return;
      }
      const failure = toStoreError(error, poolTarget(this.#pool));
      for (const item of group) item.reject(failure);
      return;
    }
    group.forEach((item, index) => {
      if (outcomes[index] === true) item.resolve();
      else {
        const { threadId, seq } = item.entry;
        item.reject(new CheckpointConflictError({ threadId, seq }));
      }
    });
  }

  async #call(entries: CheckpointEntry[]): Promise<boolean[]> {
    const { rows } = await this.#pool.query<{ appended: boolean[] }>({
      ...appendSql,
      values: [
        entries.map((entry) => entry.threadId),
        entries.map((entry) => entry.seq),
        entries.map((entry) => entry.status),
        entries.map((entry) => entry.runId),
        entries.map((entry) => entry.createdAt),
        entries.map(entryLine),
        segmentSealBytes,
        // A run's last entry (its answer, its pause) waits for the disk; steps before it need
        // only survive this process, which any commit does.
        this.#waitForEveryStep || entries.some((entry) => entry.status !== 'running'),
      ],
    });
    return rows[0]?.appended ?? [];
  }
}
