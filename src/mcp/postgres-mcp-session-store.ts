import { type PostgresPool, queryPostgres } from '../core/index.ts';
import {
  type McpSession,
  type McpSessionRow,
  type McpSessionStore,
  mcpSessionIdleMs,
  mcpSessionOf,
  mcpSessionTouchMs,
} from './mcp-session-store.ts';

/**
 * The MCP sessions in PostgreSQL (`mcp_sessions`, from `mcpSessionMigrations`), shared by every
 * instance on the database: a session initialized through one instance is used and ended
 * through any other. Same rules as the SQLite store.
 * @example
 * const mcpSessions = new PostgresMcpSessionStore(pool);
 */
export class PostgresMcpSessionStore implements McpSessionStore {
  #pool: PostgresPool;

  constructor(pool: PostgresPool) {
    this.#pool = pool;
  }

  async create(
    session: Pick<McpSession, 'id' | 'owner' | 'protocolVersion'>,
    now = Date.now(),
  ): Promise<void> {
    await queryPostgres(this.#pool, 'DELETE FROM mcp_sessions WHERE last_used_at < $1', [
      now - mcpSessionIdleMs,
    ]);
    await queryPostgres(
      this.#pool,
      `INSERT INTO mcp_sessions (session_id, owner, protocol_version, created_at, last_used_at)
       VALUES ($1, $2, $3, $4, $4)`,
      [session.id, session.owner, session.protocolVersion, now],
    );
  }

  async use(id: string, owner: string, now = Date.now()): Promise<McpSession | undefined> {
    const { rows } = await queryPostgres<McpSessionRow>(
      this.#pool,
      `SELECT session_id, owner, protocol_version, created_at, last_used_at FROM mcp_sessions
       WHERE session_id = $1 AND owner = $2 AND last_used_at >= $3`,
      [id, owner, now - mcpSessionIdleMs],
    );
    const [row] = rows;
    if (row === undefined) return undefined;
    const session = mcpSessionOf(row);
    if (session.lastUsedAt >= now - mcpSessionTouchMs) return session;
    await queryPostgres(
      this.#pool,
      'UPDATE mcp_sessions SET last_used_at = $1 WHERE session_id = $2 AND last_used_at < $1',
      [now, id],
    );
    return { ...session, lastUsedAt: now };
  }

  async end(id: string, owner: string, now = Date.now()): Promise<boolean> {
    const { rowCount } = await queryPostgres(
      this.#pool,
      'DELETE FROM mcp_sessions WHERE session_id = $1 AND owner = $2 AND last_used_at >= $3',
      [id, owner, now - mcpSessionIdleMs],
    );
    return rowCount === 1;
  }
}
