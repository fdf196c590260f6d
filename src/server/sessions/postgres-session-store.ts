import { type PostgresPool, queryPostgres } from '../../core/index.ts';
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

type OwnerRow = Pick<SessionRow, 'title' | 'graph'> & { owner: string };

/**
 * The session registry in PostgreSQL (`server_sessions`, from `serverMigrations`), shared by
 * every instance on the database: a session created through one instance is its owner's
 * through all of them. Same rules as the SQLite registry.
 * @example
 * const sessions = new PostgresSessionStore(pool);
 * await sessions.claim('demo', anonymousOwner, '안녕하세요');
 */
export class PostgresSessionStore implements SessionStore {
  #pool: PostgresPool;

  constructor(pool: PostgresPool) {
    this.#pool = pool;
  }

  async title(sessionId: string, firstMessage: string): Promise<void> {
    const title = titleOf(firstMessage);
    if (title === '') return;
    await queryPostgres(
      this.#pool,
      "UPDATE server_sessions SET title = $2 WHERE session_id = $1 AND title = ''",
      [sessionId, title],
    );
  }

  async claim(
    sessionId: string,
    owner: string,
    firstMessage = '',
    graph?: string,
    forkedFrom?: ForkOrigin,
  ): Promise<boolean> {
    const title = titleOf(firstMessage);
    // Most requests continue a session: one read, and a write only for a new one or a title.
    const existing = await this.#ownerRow(sessionId);
    if (existing) {
      if (existing.owner !== owner) throw notFound(sessionId);
      checkGraph(sessionId, existing.graph, graph);
      if (title !== '' && existing.title === '') {
        await queryPostgres(
          this.#pool,
          "UPDATE server_sessions SET title = $2 WHERE session_id = $1 AND title = ''",
          [sessionId, title],
        );
      }
      return false;
    }
    const { rowCount } = await queryPostgres(
      this.#pool,
      `INSERT INTO server_sessions (session_id, owner, title, created_at, graph, forked_from, forked_at_step)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (session_id) DO NOTHING`,
      [
        sessionId,
        owner,
        title,
        Date.now(),
        storedGraph(graph),
        forkedFrom?.sessionId ?? null,
        forkedFrom?.step ?? null,
      ],
    );
    // Two requests may have claimed the same new id at once: the first one stored wins.
    if (rowCount === 0 && (await this.#ownerRow(sessionId))?.owner !== owner) {
      throw notFound(sessionId);
    }
    return rowCount > 0;
  }

  async graphOf(sessionId: string): Promise<string | undefined> {
    return (await this.#ownerRow(sessionId))?.graph || undefined;
  }

  async check(sessionId: string, owner: string): Promise<void> {
    if (((await this.#ownerRow(sessionId))?.owner ?? anonymousOwner) !== owner) {
      throw notFound(sessionId);
    }
  }

  async ownerOf(sessionId: string): Promise<string | undefined> {
    return (await this.#ownerRow(sessionId))?.owner;
  }

  async has(sessionId: string): Promise<boolean> {
    return (await this.#ownerRow(sessionId)) !== undefined;
  }

  async registered(sessionIds: string[]): Promise<Set<string>> {
    if (sessionIds.length === 0) return new Set();
    const { rows } = await queryPostgres<{ session_id: string }>(
      this.#pool,
      'SELECT session_id FROM server_sessions WHERE session_id = ANY($1::text[])',
      [sessionIds],
    );
    return new Set(rows.map((row) => row.session_id));
  }

  async owned(owner: string): Promise<SessionSummary[]> {
    const { rows } = await queryPostgres<SessionRow>(
      this.#pool,
      'SELECT session_id, title, created_at, graph, forked_from, forked_at_step FROM server_sessions WHERE owner = $1 ORDER BY created_at DESC, session_id',
      [owner],
    );
    return rows.map(summaryOf);
  }

  async forget(sessionId: string): Promise<void> {
    await queryPostgres(this.#pool, 'DELETE FROM server_sessions WHERE session_id = $1', [
      sessionId,
    ]);
  }

  async #ownerRow(sessionId: string): Promise<OwnerRow | undefined> {
    const { rows } = await queryPostgres<OwnerRow>(
      this.#pool,
      'SELECT owner, title, graph FROM server_sessions WHERE session_id = $1',
      [sessionId],
    );
    return rows[0];
  }
}
