import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { StatelessMessage } from './check-stateless-request.ts';
import { loadMcpTypesSdk } from './load-mcp-sdk.ts';
import { statelessRevision } from './mcp-revisions.ts';

/** A transport for one message: what the server sends goes to `sent`. */
class OneMessageTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  #sent: (message: JSONRPCMessage) => void;

  constructor(sent: (message: JSONRPCMessage) => void) {
    this.#sent = sent;
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    this.#sent(message);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }
}

/**
 * Hands one JSON-RPC message to `server` (a server of its own, for this message alone) and
 * resolves with its answer: the response to a request, undefined for a notification or when
 * `signal` aborts first (the tool in flight is aborted too). What the server sends meanwhile
 * (progress notifications) goes to `onNotification`. The server is closed afterwards.
 * @example
 * const answer = await answerOneMessage(await createMcpServer(backend), message, { signal });
 */
export async function answerOneMessage(
  server: McpServer,
  message: StatelessMessage,
  options: {
    signal: AbortSignal;
    headers?: Record<string, string | string[] | undefined>;
    onNotification?: (message: JSONRPCMessage) => void;
  },
): Promise<JSONRPCMessage | undefined> {
  const { isJSONRPCErrorResponse, isJSONRPCResultResponse } = await loadMcpTypesSdk();
  let settle: (answer: JSONRPCMessage | undefined) => void = () => undefined;
  const answered = new Promise<JSONRPCMessage | undefined>((resolve) => {
    settle = resolve;
  });
  const transport = new OneMessageTransport((sent) => {
    const response = isJSONRPCResultResponse(sent) || isJSONRPCErrorResponse(sent);
    if (response && sent.id === message.id) settle(sent);
    else options.onNotification?.(sent);
  });
  const abort = () => settle(undefined);
  options.signal.addEventListener('abort', abort, { once: true });
  try {
    await server.connect(transport);
    transport.onmessage?.(message as JSONRPCMessage, {
      requestInfo: { headers: options.headers ?? {} },
    });
    if (message.id === undefined || options.signal.aborted) return undefined;
    return await answered;
  } finally {
    options.signal.removeEventListener('abort', abort);
    await server.close();
  }
}

/**
 * `server/discover`'s result: the revision, the server's capabilities and who it is — what
 * `initialize` would tell, with no session begun.
 */
export async function discoverServer(
  server: McpServer,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const { isJSONRPCResultResponse } = await loadMcpTypesSdk();
  const answer = await answerOneMessage(
    server,
    {
      jsonrpc: '2.0',
      id: 'discover',
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'discover', version: statelessRevision },
      },
    },
    { signal },
  );
  if (answer === undefined || !isJSONRPCResultResponse(answer)) {
    throw new Error('the MCP server did not describe itself');
  }
  const { capabilities, serverInfo } = answer.result as {
    capabilities: Record<string, unknown>;
    serverInfo: { name: string; version: string };
  };
  return {
    protocolVersion: statelessRevision,
    capabilities,
    serverInfo: { name: serverInfo.name, version: serverInfo.version },
  };
}
