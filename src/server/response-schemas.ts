import { z } from 'zod';

/** Every error answer: `{error: {code, message}}`. */
export const errorResponseSchema = z.object({
  error: z.object({
    code: z.string().describe('stable error code, e.g. invalid_request, awaiting_approval'),
    message: z.string().describe('what went wrong, in words a user can act on'),
    details: z.unknown().optional(),
  }),
});

const usage = z.object({
  llmCalls: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
});

/** A tool call waiting for a person's decision. */
export const interruptSchema = z.object({
  id: z.string(),
  type: z.literal('tool-approval'),
  tool: z.string(),
  args: z.unknown(),
  createdAt: z.string().describe('ISO time'),
});

const source = z.object({ documentId: z.string(), chunkId: z.string(), title: z.string() });

/** The payload of invoke (and of the stream's `done` event). */
export const invokeResponseSchema = z.object({
  response: z.string(),
  sessionId: z.string(),
  toolsUsed: z.array(z.string()),
  executionTime: z.number().describe('seconds'),
  status: z.enum(['published', 'rejected', 'error', 'interrupted', 'cancelled']),
  error: z.literal(true).optional(),
  errorCode: z.string().optional(),
  interrupts: z.array(interruptSchema).optional(),
  sources: z.array(source).optional(),
  steps: z.array(z.string()),
  usage,
  evaluation: z
    .object({
      score: z.number(),
      verdict: z.enum(['pass', 'regenerate', 'block']),
      checks: z.array(
        z.object({
          name: z.string(),
          score: z.number(),
          passed: z.boolean(),
          feedback: z.string(),
        }),
      ),
    })
    .optional(),
});

/** GET /api/agent/status. */
export const statusResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  model: z.string().describe('<provider>:<model id>'),
  lastModelError: z.object({ code: z.string(), message: z.string(), at: z.string() }).nullable(),
  embeddingModel: z.string().nullable(),
  tools: z.array(z.string()),
  graphs: z.array(z.string()),
  uptimeSeconds: z.number(),
  activeRuns: z.number(),
  store: z.object({ backend: z.enum(['sqlite', 'postgres']), instanceId: z.string() }),
  search: z.object({
    backend: z.enum(['sqlite', 'postgres', 'opensearch']),
    state: z.enum(['ok', 'unavailable']),
    lastError: z.string().optional(),
  }),
  mcpServers: z.array(
    z.object({
      name: z.string(),
      state: z.enum(['connected', 'starting', 'failed']),
      tools: z.array(z.string()),
      error: z.string().optional(),
    }),
  ),
});

const message = z.object({
  id: z.string(),
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string(),
  toolCalls: z.array(z.object({ id: z.string(), name: z.string(), args: z.unknown() })).optional(),
  toolCallId: z.string().optional(),
  name: z.string().optional(),
  isError: z.boolean().optional(),
});

/** GET /api/sessions. */
export const sessionListSchema = z.object({
  sessions: z.array(
    z.object({
      sessionId: z.string(),
      title: z.string().describe('the first message'),
      status: z.string(),
      updatedAt: z.string(),
    }),
  ),
});

/** GET /api/sessions/:id. */
export const sessionSchema = z.object({
  sessionId: z.string(),
  messages: z.array(message).describe('the memory window the model sees'),
  summary: z.string(),
  interrupts: z.array(interruptSchema),
  status: z.string(),
  running: z.boolean(),
  updatedAt: z.string(),
});

/** GET /api/sessions/:id/history. */
export const historySchema = z.object({
  steps: z.array(
    z.object({
      runId: z.string(),
      node: z.string(),
      kind: z.enum(['input', 'node', 'interrupt', 'resume', 'end']),
      update: z.record(z.string(), z.unknown()).nullable(),
      status: z.string(),
      error: z.object({ code: z.string(), message: z.string() }).optional(),
      at: z.string(),
    }),
  ),
});

/** POST /api/documents. */
export const documentsCreatedSchema = z.object({
  ids: z.array(z.string()),
  chunks: z.number().int(),
  unchanged: z.array(z.string()).optional(),
  failed: z.array(z.object({ file: z.string(), error: z.string() })).optional(),
});

/** GET /api/documents. */
export const documentListSchema = z.object({
  documents: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      chunks: z.number().int(),
      metadata: z.record(z.string(), z.unknown()),
      updatedAt: z.string(),
    }),
  ),
});

/** POST /api/search. */
export const searchResponseSchema = z.object({
  hits: z.array(
    z.object({
      documentId: z.string(),
      chunkId: z.string(),
      title: z.string(),
      text: z.string(),
      score: z.number(),
      metadata: z.record(z.string(), z.unknown()),
    }),
  ),
});

/** GET /api/graphs. */
export const graphListSchema = z.object({
  graphs: z.array(
    z.object({ name: z.string(), chat: z.boolean(), builtin: z.boolean(), mermaid: z.string() }),
  ),
});
