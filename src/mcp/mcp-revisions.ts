/** The stateless revision: no `initialize`, no session, each POST stands alone. */
export const statelessRevision = '2026-07-28';

/** The revisions whose clients `initialize` and get an `Mcp-Session-Id`, newest first. */
export const sessionRevisions = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;

/** Every revision `/mcp` serves, newest first. */
export const supportedRevisions: readonly string[] = [statelessRevision, ...sessionRevisions];

/** The `_meta` key a stateless request names its revision with. */
export const protocolVersionMetaKey = 'io.modelcontextprotocol/protocolVersion';

/** A JSON-RPC id as a refusal echoes it (null when the body named none). */
export type JsonRpcId = string | number | null;

/** An HTTP refusal carrying a JSON-RPC error: the status and the body. */
export interface McpRefusal {
  status: number;
  body: {
    jsonrpc: '2.0';
    error: { code: number; message: string; data?: unknown };
    id: JsonRpcId;
  };
}

/** A refusal with JSON-RPC error `code`, answering the request `id`. */
export function mcpRefusal(
  status: number,
  code: number,
  message: string,
  id: JsonRpcId = null,
  data?: unknown,
): McpRefusal {
  return {
    status,
    body: { jsonrpc: '2.0', error: { code, message, ...(data === undefined ? {} : { data }) }, id },
  };
}

/** What a request naming an unknown, ended, expired or another owner's session gets. */
export function sessionNotFound(id: JsonRpcId = null): McpRefusal {
  return mcpRefusal(404, -32001, 'Session not found', id);
}

/**
 * 400 with JSON-RPC error -32022 for an `MCP-Protocol-Version` header this server does not
 * serve (its data lists the ones it does); undefined when the header is absent or served.
 */
export function refuseRevision(header: string | undefined, id: JsonRpcId = null) {
  if (header === undefined || supportedRevisions.includes(header)) return undefined;
  return mcpRefusal(
    400,
    -32022,
    `Unsupported protocol version: ${header} (supported: ${supportedRevisions.join(', ')})`,
    id,
    { supported: supportedRevisions, requested: header },
  );
}

/** The JSON-RPC id of a body, when it has one (null otherwise). */
export function jsonRpcIdOf(body: unknown): JsonRpcId {
  const id = isObject(body) ? body.id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** Whether `value` is a plain JSON object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
