import type { DatabaseSync } from 'node:sqlite';

/**
 * Runs `work` in a write transaction of its own (`BEGIN IMMEDIATE`: the write lock first, so
 * what it reads stays true until it commits, across processes on the same file); committed
 * when it returns, rolled back when it throws.
 * @example
 * const count = immediateTransaction(database, () => { … return changes; });
 */
export function immediateTransaction<T>(database: DatabaseSync, work: () => T): T {
  database.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    database.exec('COMMIT');
    return result;
  } catch (error) {
    // A disk-full or I/O error may have ended the transaction already.
    if (database.isTransaction) database.exec('ROLLBACK');
    throw error;
  }
}
