/** How a card is made: the graph, the base URL, whether keys are needed, the server's version. */
export interface AgentCardInput {
  name: string;
  builtin: boolean;
  base: string;
  secured: boolean;
  version: string;
}

/**
 * A chat graph's A2A agent card: its interfaces (JSON-RPC 1.0 and 0.3, HTTP+JSON 1.0) at
 * BASE/a2a/NAME, streaming without push notifications, one skill (the graph), 0.3's `url`,
 * `preferredTransport` and `protocolVersion`, and, with keys, the bearer scheme.
 */
export function agentCardOf(input: AgentCardInput) {
  const { name, base, secured, version } = input;
  const url = `${base}/a2a/${encodeURIComponent(name)}`;
  const description = input.builtin
    ? `Yeoul’s built-in "${name}" agent: answers messages with its knowledge base and tools; tool calls that need a person wait for approval.`
    : `The chat graph "${name}" of this Yeoul server’s config file.`;
  return {
    name,
    description,
    version,
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      { url, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: name,
        name: input.builtin ? `Yeoul ${name}` : name,
        description,
        tags: ['conversation', input.builtin ? 'builtin' : 'config'],
      },
    ],
    url,
    preferredTransport: 'JSONRPC',
    protocolVersion: '0.3.0',
    ...(secured
      ? {
          securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
          securityRequirements: [{ schemes: { bearer: { list: [] } } }],
        }
      : {}),
  };
}

/** Where clients reach the server: `YEOUL_PUBLIC_URL`, else `http://` + the request's `Host`. */
export function baseUrlOf(publicUrl: string | undefined, host: string | undefined): string {
  return publicUrl ?? `http://${host ?? '127.0.0.1'}`;
}
