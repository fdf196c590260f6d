import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { graphNamePattern, isYeoulError, sessionIdPattern } from '../core/index.ts';
import { loadMcpServerSdk } from './load-mcp-sdk.ts';
import { progressReporter } from './progress-reporter.ts';
import type { McpAnswer, McpBackend, McpPassage } from './types.ts';

/** `ask`'s input; `builtinGraphs`: the server's built-in agents, its default graph first. */
export function askInput(builtinGraphs: readonly string[]) {
  const [first, ...rest] = builtinGraphs;
  const builtins = [`${first} (default)`, ...rest].join(', ');
  return z.object({
    message: z.string().min(1).max(100_000).describe('the question or request, in any language'),
    sessionId: z
      .string()
      .regex(sessionIdPattern, '1–128 letters, digits and _ . : -')
      .optional()
      .describe('continue this conversation (omit to start a new one; the answer names its id)'),
    graph: z
      .string()
      .regex(graphNamePattern, 'a graph name')
      .optional()
      .describe(`the chat graph that answers: ${builtins} or one of the server’s own`),
  });
}

/** `search_knowledge`'s input. */
export const searchKnowledgeInput = z.object({
  query: z.string().min(1).max(2000).describe('what to look for'),
  k: z.number().int().min(1).max(50).optional().describe('how many passages (default 5)'),
});

const answerOutput = z.object({
  response: z.string(),
  sessionId: z.string(),
  status: z.string().describe('published, rejected, error, interrupted, cancelled or blocked'),
  toolsUsed: z.array(z.string()),
  errorCode: z.string().optional(),
  interrupts: z
    .array(z.object({ id: z.string(), tool: z.string(), args: z.unknown() }))
    .optional()
    .describe('tool calls waiting for a person to approve or deny them'),
  sources: z
    .array(z.object({ documentId: z.string(), chunkId: z.string(), title: z.string() }))
    .optional(),
  guardrail: z
    .object({ name: z.string(), stage: z.string(), reason: z.string() })
    .optional()
    .describe('with status "blocked": the guardrail that blocked the turn or the answer'),
});

const passagesOutput = z.object({
  hits: z.array(
    z.object({
      documentId: z.string(),
      chunkId: z.string(),
      title: z.string(),
      heading: z.string(),
      text: z.string(),
      score: z.number(),
    }),
  ),
});

/**
 * Yeoul as an MCP server: `ask` runs the agent (progress notifications while it streams,
 * when the client sent a progress token) and `search_knowledge` returns the knowledge
 * base's best passages. One server per connection (or per request, for stateless HTTP). The
 * SDK is loaded on the first call.
 * @example
 * const server = await createMcpServer(backend);
 * await server.connect(new StdioServerTransport());
 */
export async function createMcpServer(backend: McpBackend): Promise<McpServer> {
  const { McpServer } = await loadMcpServerSdk();
  const server = new McpServer(
    { name: 'yeoul', title: 'Yeoul', version: backend.version },
    {
      capabilities: { tools: {} },
      instructions:
        'Yeoul is an AI agent with tools and a knowledge base. Use `ask` for questions it should answer (pass the sessionId it returns to continue a conversation) and `search_knowledge` for passages of its documents.',
    },
  );

  server.registerTool(
    'ask',
    {
      title: 'Ask Yeoul',
      description:
        "Ask Yeoul's agent; it may search its knowledge base and call its tools before answering. Returns the answer and the session id to continue the conversation.",
      inputSchema: askInput(backend.builtinGraphs).shape,
      outputSchema: answerOutput.shape,
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    async (input, extra) => {
      const progress = progressReporter(extra._meta?.progressToken, (params) =>
        extra.sendNotification({ method: 'notifications/progress', params }),
      );
      try {
        const answer = await askNamingCode(
          backend,
          {
            message: input.message,
            ...(input.sessionId ? { sessionId: input.sessionId } : {}),
            ...(input.graph ? { graph: input.graph } : {}),
          },
          { signal: extra.signal, onEvent: progress.onEvent },
        );
        return {
          content: [{ type: 'text' as const, text: answer.response }],
          structuredContent: structuredAnswer(answer),
          ...(answer.status === 'error' || answer.status === 'blocked' ? { isError: true } : {}),
        };
      } finally {
        progress.stop();
      }
    },
  );

  server.registerTool(
    'search_knowledge',
    {
      title: 'Search the knowledge base',
      description:
        "The passages of Yeoul's knowledge base that best match a query, best first, with their document ids and titles.",
      inputSchema: searchKnowledgeInput.shape,
      outputSchema: passagesOutput.shape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (input) => {
      const hits = await backend.searchKnowledge(input.query, input.k);
      return {
        content: [{ type: 'text' as const, text: passagesText(hits) }],
        structuredContent: { hits: hits.map(passageFields) },
      };
    },
  );
  return server;
}

/**
 * `backend.ask`, whose refusals name their code first (`rate_limited: …`, `not_found: …`): the
 * tool error the client sees says what kind of refusal it is, as the HTTP API's body does.
 */
async function askNamingCode(
  backend: McpBackend,
  ...args: Parameters<McpBackend['ask']>
): Promise<McpAnswer> {
  try {
    return await backend.ask(...args);
  } catch (error) {
    if (isYeoulError(error)) throw new Error(`${error.code}: ${error.message}`, { cause: error });
    throw error;
  }
}

function structuredAnswer(answer: McpAnswer): Record<string, unknown> {
  return {
    response: answer.response,
    sessionId: answer.sessionId,
    status: answer.status,
    toolsUsed: answer.toolsUsed,
    ...(answer.errorCode ? { errorCode: answer.errorCode } : {}),
    ...(answer.interrupts?.length ? { interrupts: answer.interrupts } : {}),
    ...(answer.sources?.length ? { sources: answer.sources } : {}),
    ...(answer.guardrail ? { guardrail: answer.guardrail } : {}),
  };
}

function passageFields(hit: McpPassage): McpPassage {
  const { documentId, chunkId, title, heading, text, score } = hit;
  return { documentId, chunkId, title, heading, text, score };
}

/** Passages as text: numbered, with title, section and document id. */
function passagesText(hits: McpPassage[]): string {
  if (hits.length === 0) return 'No passages match.';
  return hits
    .map((hit, index) => {
      const where =
        hit.heading && hit.heading !== hit.title ? `${hit.title} › ${hit.heading}` : hit.title;
      return `[${index + 1}] ${where} (${hit.documentId})\n${hit.text.trim()}`;
    })
    .join('\n\n');
}
