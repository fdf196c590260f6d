import type { Migration } from '../core/index.ts';

const sessionsSql = `
-- MCP sessions of the session-based revisions (McpSessionStore): the Mcp-Session-Id an
-- initialize handed out, whose it is, and when it was last used (epoch milliseconds); a session
-- is forgotten when its client ends it or after 24 hours without a request.
CREATE TABLE mcp_sessions (
  session_id text COLLATE "C" PRIMARY KEY,
  owner text NOT NULL,
  protocol_version text NOT NULL,
  created_at bigint NOT NULL,
  last_used_at bigint NOT NULL
);
CREATE INDEX mcp_sessions_last_used ON mcp_sessions (last_used_at);
`;

/** The MCP server's schema in PostgreSQL (versions 970–979): its sessions. */
export const mcpSessionMigrations: readonly Migration[] = [
  { version: 970, name: 'mcp_sessions', sql: sessionsSql },
];
