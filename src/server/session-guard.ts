import { createHash } from 'node:crypto';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { SqliteWriteBatch } from '../core/index.ts';
import { HttpError } from './http-error.ts';

/**
 * Who owns which session (the API key that created it, stored as a hash) and how many
 * requests wait on each: beyond `queueLimit` waiting requests a session answers 409.
 */
export class SessionGuard {
  #batch: SqliteWriteBatch;
  #queueLimit: number;
  #inFlight = new Map<string, number>();
  #selectOwner: StatementSync;
  #insertOwner: StatementSync;
  #selectOwned: StatementSync;
  #deleteOwner: StatementSync;

  constructor(database: DatabaseSync, queueLimit: number) {
    this.#queueLimit = queueLimit;
    database.exec(
      'CREATE TABLE IF NOT EXISTS server_session_owners (session_id TEXT PRIMARY KEY, owner TEXT NOT NULL, created_at INTEGER NOT NULL) WITHOUT ROWID',
    );
    // Claims commit together with the checkpoints of the same connection.
    this.#batch = SqliteWriteBatch.of(database);
    this.#selectOwner = database.prepare(
      'SELECT owner FROM server_session_owners WHERE session_id = ?',
    );
    this.#insertOwner = database.prepare(
      'INSERT OR IGNORE INTO server_session_owners (session_id, owner, created_at) VALUES (?, ?, ?)',
    );
    this.#selectOwned = database.prepare(
      'SELECT session_id FROM server_session_owners WHERE owner = ?',
    );
    this.#deleteOwner = database.prepare('DELETE FROM server_session_owners WHERE session_id = ?');
  }

  /** The owner tag of a key (a hash, never the key). */
  static ownerOf(key: string | undefined): string {
    return key === undefined
      ? 'anonymous'
      : createHash('sha256').update(key).digest('hex').slice(0, 32);
  }

  /** Throws 404 when the session exists and belongs to someone else; claims it when new. */
  async claim(sessionId: string, owner: string): Promise<void> {
    const row = this.#ownerRow(sessionId);
    if (row && row.owner !== owner) throw notFound(sessionId);
    if (row) return;
    const { changes } = await this.#batch.run(() =>
      this.#insertOwner.run(sessionId, owner, Date.now()),
    );
    // Two requests may have claimed the same new id at once: the first one stored wins.
    if (changes === 0 && this.#ownerRow(sessionId)?.owner !== owner) throw notFound(sessionId);
  }

  #ownerRow(sessionId: string): { owner: string } | undefined {
    return this.#selectOwner.get(sessionId) as { owner: string } | undefined;
  }

  /** Throws 404 unless the session exists and belongs to `owner`. */
  check(sessionId: string, owner: string): void {
    if (this.#ownerRow(sessionId)?.owner !== owner) throw notFound(sessionId);
  }

  /** The sessions `owner` may see. */
  owned(owner: string): Set<string> {
    const rows = this.#selectOwned.all(owner) as Array<{ session_id: string }>;
    return new Set(rows.map((row) => row.session_id));
  }

  forget(sessionId: string): void {
    this.#batch.flush();
    this.#deleteOwner.run(sessionId);
  }

  /** Counts a request in; throws 409 when the session already has `queueLimit` waiting. */
  enter(sessionId: string): () => void {
    const current = this.#inFlight.get(sessionId) ?? 0;
    if (current > this.#queueLimit) {
      throw new HttpError({
        status: 409,
        code: 'session_busy',
        message: `session "${sessionId}" already has ${current} requests running or waiting; try again when they finish`,
      });
    }
    this.#inFlight.set(sessionId, current + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const remaining = (this.#inFlight.get(sessionId) ?? 1) - 1;
      if (remaining <= 0) this.#inFlight.delete(sessionId);
      else this.#inFlight.set(sessionId, remaining);
    };
  }

  /** Requests running or waiting, over all sessions. */
  get active(): number {
    let total = 0;
    for (const count of this.#inFlight.values()) total += count;
    return total;
  }
}

function notFound(sessionId: string): HttpError {
  return new HttpError({ status: 404, code: 'not_found', message: `no session "${sessionId}"` });
}
