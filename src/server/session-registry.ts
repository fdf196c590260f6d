import { createHash } from 'node:crypto';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { SqliteWriteBatch } from '../core/index.ts';
import { HttpError } from './http-error.ts';

/** The owner of sessions made without an API key: the CLI, or a server without keys. */
export const anonymousOwner = 'anonymous';

/** One session as listings show it. */
export interface SessionSummary {
  sessionId: string;
  /** The first user message, shortened: what the session is about. */
  title: string;
  createdAt: number;
  /** The user graph the session runs on; `chat` for the built-in agents' sessions. */
  graph: string;
  /** The session and step it was forked from, when it is a fork. */
  forkedFrom?: ForkOrigin;
}

/** Where a fork came from: its original session and the step it was taken after. */
export interface ForkOrigin {
  sessionId: string;
  step: number;
}

/**
 * The one registry of sessions, shared by the HTTP API and the CLI: who owns each (a hash
 * of the API key that created it, or `anonymous`), when it was made and what it is about.
 * Every store (SQLite here, PostgreSQL for several instances) implements it.
 */
export interface SessionStore {
  /**
   * Registers a new session for `owner` (titled by its first message, on the graph the
   * request names), or checks that an existing one is theirs: another owner's session is a
   * 404, as if it did not exist. A session stays with the user graph that started it (or
   * with the built-in agents): a request naming another one is a 409 `graph_mismatch`.
   * A fork is registered with where it came from (`forkedFrom`), listed with the session.
   */
  claim(
    sessionId: string,
    owner: string,
    firstMessage?: string,
    graph?: string,
    forkedFrom?: ForkOrigin,
  ): Promise<void>;
  /** The user graph a session runs on; undefined for the built-in agents' (and unknown) sessions. */
  graphOf(sessionId: string): Promise<string | undefined>;
  /** Throws 404 unless the session is `owner`'s (an unregistered one counts as anonymous). */
  check(sessionId: string, owner: string): Promise<void>;
  /** Whether the session is registered (to anyone). */
  has(sessionId: string): Promise<boolean>;
  /** Which of these sessions are registered (to anyone), in one lookup. */
  registered(sessionIds: string[]): Promise<Set<string>>;
  /** The sessions `owner` may see, newest first. */
  owned(owner: string): Promise<SessionSummary[]>;
  /** Removes the session from the registry. */
  forget(sessionId: string): Promise<void>;
}

/**
 * The session registry in the embedded SQLite store (the checkpoints' database). A session
 * id follows one rule everywhere (`sessionIdPattern`).
 */
export class SessionRegistry implements SessionStore {
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

  /** The owner tag of a key (a hash, never the key); `anonymous` without one. */
  static ownerOf(key: string | undefined): string {
    return key === undefined
      ? anonymousOwner
      : createHash('sha256').update(key).digest('hex').slice(0, 32);
  }

  async claim(
    sessionId: string,
    owner: string,
    firstMessage = '',
    graph?: string,
    forkedFrom?: ForkOrigin,
  ): Promise<void> {
    const title = titleOf(firstMessage);
    const row = this.#ownerRow(sessionId);
    if (row && row.owner !== owner) throw notFound(sessionId);
    if (row) {
      checkGraph(sessionId, row.graph, graph);
      // A session made without a first message (a CLI resume, say) gets its title later.
      if (title && row.title === '')
        await this.#batch.run(() => this.#setTitle.run(title, sessionId));
      return;
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
  }

  async graphOf(sessionId: string): Promise<string | undefined> {
    return this.#ownerRow(sessionId)?.graph || undefined;
  }

  async check(sessionId: string, owner: string): Promise<void> {
    if ((this.#ownerRow(sessionId)?.owner ?? anonymousOwner) !== owner) throw notFound(sessionId);
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

/** A registry row as both stores read it. */
export interface SessionRow extends Record<string, unknown> {
  session_id: string;
  title: string;
  created_at: number | string;
  graph: string;
  forked_from: string | null;
  forked_at_step: number | null;
}

/** A listing's summary of a registry row. */
export function summaryOf(row: SessionRow): SessionSummary {
  return {
    sessionId: row.session_id,
    title: row.title,
    createdAt: Number(row.created_at),
    graph: row.graph || 'chat',
    ...(row.forked_from === null || row.forked_at_step === null
      ? {}
      : { forkedFrom: { sessionId: row.forked_from, step: Number(row.forked_at_step) } }),
  };
}

/** A session's title from its first message: one line, at most 80 characters. */
export function titleOf(message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}

/** What a session's row records of the graph a request names: a user graph's name, or '' for the built-ins. */
export function storedGraph(graph: string | undefined): string {
  return graph === undefined || graph === 'chat' || graph === 'react' || graph === 'ops'
    ? ''
    : graph;
}

/**
 * Refuses a request that names another graph than the one its session runs on (a user
 * graph's session stays with it; a built-in agents' session takes no user graph).
 */
export function checkGraph(sessionId: string, stored: string, requested: string | undefined): void {
  if (requested === undefined || storedGraph(requested) === stored) return;
  throw new HttpError({
    status: 409,
    code: 'graph_mismatch',
    message: `session "${sessionId}" runs on the graph "${stored || 'chat'}", not "${requested}"; start a new session for "${requested}"`,
  });
}

/** The 404 of a session that does not exist, or is another owner's. */
export function notFound(sessionId: string): HttpError {
  return new HttpError({ status: 404, code: 'not_found', message: `no session "${sessionId}"` });
}
