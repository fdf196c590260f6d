/** How long an MCP session lives without a request: 24 hours. */
export const mcpSessionIdleMs = 24 * 60 * 60 * 1000;

/**
 * How stale a session's last use may get before a request writes it again: a client's burst of
 * requests writes once a minute at most, and the idle limit holds to within that minute.
 */
export const mcpSessionTouchMs = 60 * 1000;

/** An MCP session of the session-based revisions: whose it is and which revision it speaks. */
export interface McpSession {
  id: string;
  owner: string;
  protocolVersion: string;
  /** When it was created and last used, in epoch milliseconds. */
  createdAt: number;
  lastUsedAt: number;
}

/**
 * Where the `Mcp-Session-Id`s that `initialize` hands out are kept, so that every instance on the
 * store (and this one after a restart) accepts them: SQLite in the data folder, PostgreSQL with
 * `DATABASE_URL`. A session is its owner's alone; it ends when its client ends it or after
 * `mcpSessionIdleMs` without a request. `now` (epoch milliseconds) defaults to the clock.
 * @example
 * await store.create({ id: 'm1', owner: 'alice', protocolVersion: '2025-11-25' });
 * await store.use('m1', 'alice'); // the session, its use recorded
 * await store.use('m1', 'bob'); // undefined: another owner's
 */
export interface McpSessionStore {
  /** Records a new session, used now; sessions idle past the limit are forgotten meanwhile. */
  create(
    session: Pick<McpSession, 'id' | 'owner' | 'protocolVersion'>,
    now?: number,
  ): Promise<void>;
  /**
   * The session when `owner` holds it and it was used within the idle limit, its use recorded;
   * undefined for an unknown, ended, expired or another owner's session.
   */
  use(id: string, owner: string, now?: number): Promise<McpSession | undefined>;
  /** Ends `owner`'s live session: false when there is none to end (unknown, ended, expired, another's). */
  end(id: string, owner: string, now?: number): Promise<boolean>;
}

/** A session row as both backends read it. */
export type McpSessionRow = {
  session_id: string;
  owner: string;
  protocol_version: string;
  created_at: number | string;
  last_used_at: number | string;
} & Record<string, unknown>;

/** A row as a session (PostgreSQL's bigints arrive as strings). */
export function mcpSessionOf(row: McpSessionRow): McpSession {
  return {
    id: row.session_id,
    owner: row.owner,
    protocolVersion: row.protocol_version,
    createdAt: Number(row.created_at),
    lastUsedAt: Number(row.last_used_at),
  };
}
