import {
  isObject,
  jsonRpcIdOf,
  type McpRefusal,
  mcpRefusal,
  protocolVersionMetaKey,
  statelessRevision,
} from './mcp-revisions.ts';

/** A stateless request's headers as this check reads them (lower-case names). */
export type StatelessHeaders = Record<string, string | string[] | undefined>;

/** A JSON-RPC request or notification of the stateless revision, checked. */
export interface StatelessMessage {
  jsonrpc: '2.0';
  method: string;
  id?: string | number;
  params?: Record<string, unknown>;
}

const mismatchCode = -32020;

/**
 * Checks a POST of the stateless revision: one JSON-RPC request or notification (else 400
 * -32600), whose `Mcp-Method` header equals its `method`, whose `Mcp-Name` header equals
 * `params.name` on `tools/call`, and whose `params._meta["io.modelcontextprotocol/protocolVersion"]`
 * equals the revision — else 400 with JSON-RPC error -32020 naming what disagrees.
 * @example
 * const checked = checkStatelessRequest(request.headers, request.body);
 * if ('status' in checked) reply.code(checked.status).send(checked.body);
 */
export function checkStatelessRequest(
  headers: StatelessHeaders,
  body: unknown,
): StatelessMessage | McpRefusal {
  const id = jsonRpcIdOf(body);
  if (!isObject(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string') {
    return mcpRefusal(
      400,
      -32600,
      'Invalid Request: a stateless POST carries one JSON-RPC request or notification',
      id,
    );
  }
  if (body.params !== undefined && !isObject(body.params)) {
    return mcpRefusal(400, -32600, 'Invalid Request: params must be an object', id);
  }
  const params = body.params ?? {};
  const method = headerOf(headers, 'mcp-method');
  if (method !== body.method) {
    return mismatch(
      `the Mcp-Method header (${shown(method)}) must equal the body's method (${shown(body.method)})`,
      id,
    );
  }
  if (body.method === 'tools/call') {
    const name = headerOf(headers, 'mcp-name');
    if (name !== params.name) {
      return mismatch(
        `the Mcp-Name header (${shown(name)}) must equal params.name (${shown(params.name)})`,
        id,
      );
    }
  }
  const meta = isObject(params._meta) ? params._meta : {};
  const version = meta[protocolVersionMetaKey];
  if (version !== statelessRevision) {
    return mismatch(
      `params._meta["${protocolVersionMetaKey}"] (${shown(version)}) must equal the MCP-Protocol-Version header (${statelessRevision})`,
      id,
    );
  }
  return body as unknown as StatelessMessage;
}

function mismatch(what: string, id: string | number | null): McpRefusal {
  return mcpRefusal(400, mismatchCode, `Header mismatch: ${what}`, id);
}

function headerOf(headers: StatelessHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A value as a message names it: JSON, or "missing". */
function shown(value: unknown): string {
  return value === undefined ? 'missing' : JSON.stringify(value);
}
