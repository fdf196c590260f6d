import type { DatabaseSync } from 'node:sqlite';
import { toSqliteStoreError } from './classify-sqlite-error.ts';

interface PendingWrite {
  write: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const batches = new WeakMap<DatabaseSync, SqliteWriteBatch>();

/**
 * Group commit for one SQLite connection: writes asked for in the same turn of the event
 * loop run inside one transaction, and each caller's promise settles only once that
 * transaction has committed — as durable as a transaction of its own, for one WAL commit
 * instead of one per write. A write that throws (a constraint, say) fails alone: SQLite
 * undoes just that statement. Each write must be one statement, or undo its own work.
 */
export class SqliteWriteBatch {
  readonly database: DatabaseSync;
  #pending: PendingWrite[] = [];
  #scheduled = false;

  private constructor(database: DatabaseSync) {
    this.database = database;
  }

  /** The batch of a connection (one per connection, so every writer shares it). */
  static of(database: DatabaseSync): SqliteWriteBatch {
    let batch = batches.get(database);
    if (batch === undefined) {
      batch = new SqliteWriteBatch(database);
      batches.set(database, batch);
    }
    return batch;
  }

  /** Runs `write` in the next group transaction; resolves with its result once committed. */
  run<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits what is waiting now (also called before the connection closes). */
  flush(): void {
    this.#scheduled = false;
    const pending = this.#pending;
    if (pending.length === 0) return;
    this.#pending = [];
    if (!this.database.isOpen) {
      for (const item of pending) item.reject(new Error('the database was closed'));
      return;
    }
    const [only] = pending;
    if (pending.length === 1 && only !== undefined && !this.database.isTransaction) {
      // One statement is a transaction of its own: no BEGIN and COMMIT round trips.
      try {
        only.resolve(only.write());
      } catch (error) {
        this.#fail(only, error);
      }
      return;
    }
    try {
      this.database.exec('BEGIN IMMEDIATE');
    } catch (error) {
      for (const item of pending) this.#fail(item, error);
      return;
    }
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    for (const item of pending) {
      try {
        outcomes.push({ ok: true, value: item.write() });
      } catch (error) {
        outcomes.push({ ok: false, error });
        // Disk full or I/O errors end the whole transaction: nothing of this batch is kept.
        if (!this.database.isTransaction) {
          for (const other of pending) this.#fail(other, error);
          return;
        }
      }
    }
    try {
      this.database.exec('COMMIT');
    } catch (error) {
      if (this.database.isTransaction) this.database.exec('ROLLBACK');
      for (const item of pending) this.#fail(item, error);
      return;
    }
    pending.forEach((item, index) => {
      const outcome = outcomes[index] as (typeof outcomes)[number];
      if (outcome.ok) item.resolve(outcome.value);
      else this.#fail(item, outcome.error);
    });
  }

  /** A full disk is the store being unavailable for now (503, naming the file), not a bug. */
  #fail(item: PendingWrite, error: unknown): void {
    item.reject(toSqliteStoreError(error, this.database.location()));
  }
}
