import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { SqliteWriteBatch } from '../../core/index.ts';
import { anonymousOwner } from '../../identity/index.ts';
import {
  checkGraph,
  type ForkOrigin,
  notFound,
  type SessionRow,
  type SessionStore,
  type SessionSummary,
  storedGraph,
  summaryOf,
  titleOf,
} from './session-store.ts';

/**
 * The session registry in the embedded SQLite store (the checkpoints' database). A session
 * id follows one rule everywhere (`sessionIdPattern`).
 */
export class SqliteSessionStore implements SessionStore {
  #batch: SqliteWriteBatch;
  #selectOwner: StatementSync;
  #insertOwner: StatementSync;
  #setTitle: StatementSync;
  #selectOwned: StatementSync;
  #selectRegistered: StatementSync;
  #deleteOwner: StatementSync;

  constructor(database: DatabaseSync) {
    database.exec(
      'CREATE TABLE IF NOT EXISTS server_session_owners (session_id TEXT PRIMARY KEY, owner TEXT NOT NULL, created_at INTEGER NOT NULL) WITHOUT ROWID',
    );
    const columns = database.prepare('PRAGMA table_info(server_session_owners)').all() as Array<{
      name: string;
    }>;
    // Each column on its own: a start stopped between two still gets the later ones.
    for (const [name, definition] of [
      ['title', "TEXT NOT NULL DEFAULT ''"],
      ['graph', "TEXT NOT NULL DEFAULT ''"],
      ['forked_from', 'TEXT'],
      ['forked_at_step', 'INTEGER'],
    ]) {
      if (!columns.some((column) => column.name === name)) {
        database.exec(`ALTER TABLE server_session_owners ADD COLUMN ${name} ${definition}`);
      }
    }
    // Claims commit together with the checkpoints of the same connection.
    this.#batch = SqliteWriteBatch.of(database);
    this.#selectOwner = database.prepare(
      'SELECT owner, title, graph FROM server_session_owners WHERE session_id = ?',
    );
    this.#insertOwner = database.prepare(
      'INSERT OR IGNORE INTO server_session_owners (session_id, owner, created_at, title, graph, forked_from, forked_at_step) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.#setTitle = database.prepare(
      "UPDATE server_session_owners SET title = ? WHERE session_id = ? AND title = ''",
    );
    this.#selectOwned = database.prepare(
      'SELECT session_id, title, created_at, graph, forked_from, forked_at_step FROM server_session_owners WHERE owner = ? ORDER BY created_at DESC',
    );
    this.#selectRegistered = database.prepare(
      'SELECT session_id FROM server_session_owners WHERE session_id IN (SELECT value FROM json_each(?))',
    );
    this.#deleteOwner = database.prepare('DELETE FROM server_session_owners WHERE session_id = ?');
  }

  async title(sessionId: string, firstMessage: string): Promise<void> {
    const title = titleOf(firstMessage);
    if (title !== '') await this.#batch.run(() => this.#setTitle.run(title, sessionId));
  }

  async claim(
    sessionId: string,
    owner: string,
    firstMessage = '',
    graph?: string,
    forkedFrom?: ForkOrigin,
  ): Promise<boolean> {
    const title = titleOf(firstMessage);
    const row = this.#ownerRow(sessionId);
    if (row && row.owner !== owner) throw notFound(sessionId);
    if (row) {
      checkGraph(sessionId, row.graph, graph);
      // A session made without a first message (a CLI resume, say) gets its title later.
      if (title && row.title === '')
        await this.#batch.run(() => this.#setTitle.run(title, sessionId));
      return false;
    }
    const { changes } = await this.#batch.run(() =>
      this.#insertOwner.run(
        sessionId,
        owner,
        Date.now(),
        title,
        storedGraph(graph),
        forkedFrom?.sessionId ?? null,
        forkedFrom?.step ?? null,
      ),
    );
    // Two requests may have claimed the same new id at once: the first one stored wins.
    if (changes === 0 && this.#ownerRow(sessionId)?.owner !== owner) throw notFound(sessionId);
    return changes > 0;
  }

  async graphOf(sessionId: string): Promise<string | undefined> {
    return this.#ownerRow(sessionId)?.graph || undefined;
  }

  async check(sessionId: string, owner: string): Promise<void> {
    if ((this.#ownerRow(sessionId)?.owner ?? anonymousOwner) !== owner) throw notFound(sessionId);
  }

  async ownerOf(sessionId: string): Promise<string | undefined> {
    return this.#ownerRow(sessionId)?.owner;
  }

  async has(sessionId: string): Promise<boolean> {
    return this.#ownerRow(sessionId) !== undefined;
  }

  async registered(sessionIds: string[]): Promise<Set<string>> {
    if (sessionIds.length === 0) return new Set();
    const rows = this.#selectRegistered.all(JSON.stringify(sessionIds)) as Array<{
      session_id: string;
    }>;
    return new Set(rows.map((row) => row.session_id));
  }

  async owned(owner: string): Promise<SessionSummary[]> {
    return (this.#selectOwned.all(owner) as unknown as SessionRow[]).map(summaryOf);
  }

  async forget(sessionId: string): Promise<void> {
    this.#batch.flush();
    this.#deleteOwner.run(sessionId);
  }

  #ownerRow(sessionId: string): { owner: string; title: string; graph: string } | undefined {
    return this.#selectOwner.get(sessionId) as
      | { owner: string; title: string; graph: string }
      | undefined;
  }
}
