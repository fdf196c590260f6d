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
  type: z
    .enum(['tool-approval', 'client-tool'])
    .describe(
      'tool-approval: a person decides; client-tool: a tool the caller brought (/v1/responses) waits for its output',
    ),
  tool: z.string(),
  args: z.unknown(),
  createdAt: z.string().describe('ISO time'),
});

const source = z.object({ documentId: z.string(), chunkId: z.string(), title: z.string() });

const guardrailStage = z.enum(['input', 'output', 'tools']);

/** What one guardrail did (an entry of a run's `guardrails`, a `guardrail` stream event). */
export const guardrailRecordSchema = z.object({
  name: z.string(),
  stage: guardrailStage,
  action: z.enum(['block', 'redact', 'warn']),
  reason: z.string().describe('what was found (a detector, a family), never the value'),
  tool: z.string().optional().describe('the tool whose call or result it acted on'),
});

/** The guardrail that blocked a turn or an answer. */
export const guardrailBlockSchema = z.object({
  name: z.string(),
  stage: guardrailStage,
  reason: z.string(),
});

/** What a run ended as. */
export const runStatusSchema = z.enum([
  'published',
  'rejected',
  'error',
  'interrupted',
  'cancelled',
  'blocked',
]);

/** The payload of invoke (and of the stream's `done` event). */
export const invokeResponseSchema = z.object({
  response: z.string(),
  sessionId: z.string(),
  runId: z.string().describe('the run’s id, as its history steps carry it'),
  toolsUsed: z.array(z.string()),
  executionTime: z.number().describe('seconds'),
  status: runStatusSchema,
  guardrail: guardrailBlockSchema
    .optional()
    .describe('with status "blocked": the guardrail that blocked the turn or the answer'),
  guardrails: z
    .array(guardrailRecordSchema)
    .optional()
    .describe('what the guardrails did during the run, in order; absent when none acted'),
  error: z.literal(true).optional(),
  errorCode: z.string().optional(),
  interrupts: z.array(interruptSchema).optional(),
  sources: z.array(source).optional(),
  steps: z.array(z.string()),
  usage,
  cancelReason: z
    .object({
      type: z.enum(['request', 'client_left', 'superseded']),
      runId: z.string().optional(),
      onBusy: z.enum(['interrupt', 'rollback']).optional(),
      rollback: z.literal(true).optional().describe('cancelled by request with its steps removed'),
    })
    .optional()
    .describe('with status "cancelled": why the run was stopped'),
  model: z
    .string()
    .optional()
    .describe(
      '`<provider>:<model id>` of the run’s last successful model call (a fallback when the primary failed); absent when none succeeded',
    ),
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

/** A model's failure: its code, what went wrong (secrets removed), when. */
const modelError = z.object({
  code: z.string(),
  message: z.string(),
  at: z.string().describe('ISO time'),
});

/** GET /api/agent/status. */
export const statusResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  model: z.string().describe('the primary model, <provider>:<model id>'),
  fallbacks: z
    .array(z.string())
    .describe('the models a failed call moves on to, in order (`YEOUL_MODEL=primary,fallback,…`)'),
  lastModelError: modelError
    .extend({ model: z.string().describe('the model that failed') })
    .nullable()
    .describe('the latest failure of any model of the chain'),
  models: z
    .array(
      z.object({
        model: z.string().describe('<provider>:<model id>'),
        state: z
          .enum(['ok', 'cooling-down', 'failing'])
          .describe('cooling-down: skipped after a failure; failing: its latest call failed'),
        lastError: modelError.nullable(),
        coolingDownUntil: z.string().nullable().describe('ISO time; null when not cooling down'),
      }),
    )
    .describe('the chain, primary first'),
  answeredBy: z
    .object({ model: z.string(), at: z.string().describe('ISO time') })
    .nullable()
    .describe('the model of this instance’s latest successful model call'),
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
  config: z
    .object({
      state: z.enum(['ok', 'error']),
      error: z
        .string()
        .optional()
        .describe('the last load’s problems, while the file cannot be used'),
      loadedAt: z.string().describe('when the version serving now was loaded (ISO time)'),
      file: z.string().optional(),
    })
    .describe('the config file’s state (`yeoul dev` reports a broken save here)'),
  mcpServers: z.array(
    z.object({
      name: z.string(),
      state: z.enum(['connected', 'starting', 'failed']),
      tools: z.array(z.string()),
      error: z.string().optional(),
    }),
  ),
  limits: z
    .object({
      maxInputTokens: z.number().int().describe('tokens of one message (YEOUL_MAX_INPUT_TOKENS)'),
      bodyLimit: z.number().int().describe('bytes of a JSON request body (YEOUL_BODY_LIMIT)'),
    })
    .describe('what one request may hold, so a client can refuse a message before sending it'),
  guardrails: z
    .record(
      z.string(),
      z.object({
        input: z.array(z.string()),
        output: z.array(z.string()),
        tools: z.array(z.string()),
      }),
    )
    .describe('each chat graph’s guardrails by stage, in the order they run'),
});

const message = z.object({
  id: z.string(),
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string(),
  toolCalls: z.array(z.object({ id: z.string(), name: z.string(), args: z.unknown() })).optional(),
  toolCallId: z.string().optional(),
  name: z.string().optional(),
  isError: z.boolean().optional(),
  blocked: z
    .literal(true)
    .optional()
    .describe('a message a guardrail blocked, or its refusal: shown, never sent to a model'),
});

/** Where a fork came from: its original session and the step it was taken after. */
const forkOrigin = z.object({ sessionId: z.string(), step: z.number().int() });

/** GET /api/sessions. */
export const sessionListSchema = z.object({
  sessions: z.array(
    z.object({
      sessionId: z.string(),
      title: z.string().describe('the first message'),
      graph: z
        .string()
        .describe('the graph that runs the session (`chat` unless another started it)'),
      status: z.string(),
      updatedAt: z.string(),
      forkedFrom: forkOrigin
        .optional()
        .describe('the session and step this session was forked from (absent when not a fork)'),
    }),
  ),
});

/** GET /api/sessions/:id. */
export const sessionSchema = z.object({
  sessionId: z.string(),
  graph: z.string().describe('the graph that runs the session'),
  messages: z.array(message).describe('the memory window the model sees'),
  summary: z.string(),
  interrupts: z.array(interruptSchema),
  status: z.string(),
  running: z.boolean(),
  updatedAt: z.string(),
  forkedFrom: forkOrigin
    .optional()
    .describe('the session and step this session was forked from (absent when not a fork)'),
});

/** POST /api/sessions/:id/fork. */
export const forkResponseSchema = z.object({
  sessionId: z.string(),
  forkedFrom: forkOrigin,
});

/** GET /api/sessions/:id/history. */
export const historySchema = z.object({
  steps: z.array(
    z.object({
      step: z.number().int().describe('0, 1, 2, … per session across runs; what a fork takes'),
      runId: z.string(),
      node: z.string(),
      kind: z.enum(['input', 'node', 'task', 'interrupt', 'resume', 'end', 'fork']),
      superstep: z
        .number()
        .int()
        .describe("the run's super-step (0: its input); the tasks of one share it"),
      update: z.record(z.string(), z.unknown()).nullable(),
      status: z.string(),
      error: z.object({ code: z.string(), message: z.string() }).optional(),
      at: z.string(),
      path: z
        .array(z.string())
        .optional()
        .describe(
          "a subgraph's step: its node, then the inner node; `step` is then the subgraph's own and not a fork point",
        ),
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
