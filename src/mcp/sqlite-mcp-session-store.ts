import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { SqliteWriteBatch, toSqliteStoreError } from '../core/index.ts';
import {
  type McpSession,
  type McpSessionRow,
  type McpSessionStore,
  mcpSessionIdleMs,
  mcpSessionOf,
  mcpSessionTouchMs,
} from './mcp-session-store.ts';

const schema = `
CREATE TABLE IF NOT EXISTS mcp_sessions (
  session_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  protocol_version TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS mcp_sessions_last_used ON mcp_sessions (last_used_at);
`;

/**
 * The MCP sessions in the embedded SQLite store: the data folder's database, beside the
 * sessions and the checkpoints, so a restarted `yeoul serve` accepts the ids it handed out.
 * Writes join the connection's group commit.
 * @example
 * const mcpSessions = new SqliteMcpSessionStore(checkpointer.database);
 */
export class SqliteMcpSessionStore implements McpSessionStore {
  #database: DatabaseSync;
  #batch: SqliteWriteBatch;
  #insert: StatementSync;
  #prune: StatementSync;
  #select: StatementSync;
  #touch: StatementSync;
  #delete: StatementSync;

  constructor(database: DatabaseSync) {
    database.exec(schema);
    this.#database = database;
    this.#batch = SqliteWriteBatch.of(database);
    this.#insert = database.prepare(
      `INSERT INTO mcp_sessions (session_id, owner, protocol_version, created_at, last_used_at)
       VALUES (?, ?, ?, ?, ?)`,
    );
    this.#prune = database.prepare('DELETE FROM mcp_sessions WHERE last_used_at < ?');
    this.#select = database.prepare(
      `SELECT session_id, owner, protocol_version, created_at, last_used_at FROM mcp_sessions
       WHERE session_id = ? AND owner = ? AND last_used_at >= ?`,
    );
    this.#touch = database.prepare(
      'UPDATE mcp_sessions SET last_used_at = ? WHERE session_id = ? AND last_used_at < ?',
    );
    this.#delete = database.prepare(
      'DELETE FROM mcp_sessions WHERE session_id = ? AND owner = ? AND last_used_at >= ?',
    );
  }

  async create(
    session: Pick<McpSession, 'id' | 'owner' | 'protocolVersion'>,
    now = Date.now(),
  ): Promise<void> {
    await this.#batch.run(() => {
      this.#prune.run(now - mcpSessionIdleMs);
      this.#insert.run(session.id, session.owner, session.protocolVersion, now, now);
    });
  }

  async use(id: string, owner: string, now = Date.now()): Promise<McpSession | undefined> {
    let row: McpSessionRow | undefined;
    try {
      row = this.#select.get(id, owner, now - mcpSessionIdleMs) as McpSessionRow | undefined;
    } catch (error) {
      throw toSqliteStoreError(error, this.#database.location());
    }
    if (row === undefined) return undefined;
    const session = mcpSessionOf(row);
    if (session.lastUsedAt >= now - mcpSessionTouchMs) return session;
    await this.#batch.run(() => this.#touch.run(now, id, now - mcpSessionTouchMs));
    return { ...session, lastUsedAt: now };
  }

  async end(id: string, owner: string, now = Date.now()): Promise<boolean> {
    const { changes } = await this.#batch.run(() =>
      this.#delete.run(id, owner, now - mcpSessionIdleMs),
    );
    return Number(changes) === 1;
  }
}
