// The client's types, inferred from the schemas the server validates and documents with
// (src/protocol/): requests are what the schema accepts, answers what it describes.
import type { z } from 'zod';
import type {
  agentStreamEventSchemas,
  decisionSchema,
  documentListSchema,
  documentsBody,
  documentsCreatedSchema,
  evalRunBody,
  evalRunListSchema,
  evalRunSchema,
  evalRunStartedSchema,
  feedbackBody,
  feedbackSavedSchema,
  forkBody,
  forkResponseSchema,
  graphListSchema,
  graphRunBody,
  graphRunResponseSchema,
  graphStreamEventSchemas,
  historySchema,
  invokeBody,
  invokeResponseSchema,
  memoryItemSchema,
  memoryListSchema,
  meResponseSchema,
  searchResponseSchema,
  sessionListSchema,
  sessionSchema,
  statusResponseSchema,
} from '../protocol/index.ts';

/** The body of `POST /api/agent/invoke` and `/stream`: a message, or decisions for a paused run. */
export type InvokeRequest = z.input<typeof invokeBody>;
/** The answer of invoke, and the data of the stream's `done` event. */
export type InvokeResponse = z.output<typeof invokeResponseSchema>;
/** A person's decision on one pending tool call. */
export type Decision = z.input<typeof decisionSchema>;
/** `GET /api/agent/status`. */
export type StatusResponse = z.output<typeof statusResponseSchema>;
/** `GET /api/me`: the caller's owner, how it signed in, its scopes, and when its token expires. */
export type Me = z.output<typeof meResponseSchema>;
/** `GET /api/sessions`. */
export type SessionList = z.output<typeof sessionListSchema>;
/** `GET /api/sessions/:id`. */
export type Session = z.output<typeof sessionSchema>;
/** `GET /api/sessions/:id/history`. */
export type SessionHistory = z.output<typeof historySchema>;
/** The body of `POST /api/sessions/:id/fork`. */
export type ForkRequest = z.input<typeof forkBody>;
/** The answer of `POST /api/sessions/:id/fork`. */
export type ForkResponse = z.output<typeof forkResponseSchema>;
/** The JSON body of `POST /api/documents`. */
export type DocumentsRequest = z.input<typeof documentsBody>;
/** The answer of `POST /api/documents`. */
export type DocumentsCreated = z.output<typeof documentsCreatedSchema>;
/** `GET /api/documents`. */
export type DocumentList = z.output<typeof documentListSchema>;
/** The answer of `POST /api/search`. */
export type SearchResponse = z.output<typeof searchResponseSchema>;
/** `GET /api/graphs`. */
export type GraphList = z.output<typeof graphListSchema>;
/** The body of `POST /api/graphs/:name/invoke` and `/stream`. */
export type GraphRunRequest = z.input<typeof graphRunBody>;
/** The answer of `POST /api/graphs/:name/invoke`, and the data of its stream's `done` event. */
export type GraphRunResponse = z.output<typeof graphRunResponseSchema>;

/** One event of a stream whose events are described by `Schemas` (event name → data schema). */
export type EventOf<Schemas extends Record<string, z.ZodType>> = {
  [Name in keyof Schemas & string]: {
    event: Name;
    data: z.output<Schemas[Name]>;
    /** The SSE id (`<runId>:<n>`), what a rejoin sends as `Last-Event-ID`. */
    id: string | undefined;
  };
}[keyof Schemas & string];

/** An event of an agent run: `step`, `token`, `tool-call`, `tool-result`, `interrupt`, `error`, `done`. */
export type AgentEvent = EventOf<typeof agentStreamEventSchemas>;
/** An event of a graph run: `step`, `custom`, `interrupt`, `error`, `done`. */
export type GraphEvent = EventOf<typeof graphStreamEventSchemas>;

/** Lets a caller stop a request (and, for a stream, the connection). */
export interface RequestOptions {
  signal?: AbortSignal;
}

/** The body of `POST /api/evals`: items to run and score in the background. */
export type EvalRunRequest = z.input<typeof evalRunBody>;
/** `POST /api/evals`: the id of the run started. */
export type EvalRunStarted = z.output<typeof evalRunStartedSchema>;
/** `GET /api/evals`: the owner's runs, newest first. */
export type EvalRunList = z.output<typeof evalRunListSchema>;
/** `GET /api/evals/:id`: a run with its items and scores. */
export type EvalRun = z.output<typeof evalRunSchema>;
/** The body of `POST /api/sessions/:id/feedback`: 👍 (1) or 👎 (-1) on the last answer. */
export type FeedbackRequest = z.input<typeof feedbackBody>;
/** What `POST /api/sessions/:id/feedback` answers. */
export type FeedbackSaved = z.output<typeof feedbackSavedSchema>;

/** One long-term memory item (`GET /api/memory/<namespace>/<key>`). */
export type MemoryItem = z.output<typeof memoryItemSchema>;
/** `GET /api/memory`: the owner's items, best first when a query is given. */
export type MemoryList = z.output<typeof memoryListSchema>;
/** What `GET /api/memory` takes: a namespace prefix (whole segments), a query, a limit. */
export interface MemoryListQuery {
  prefix?: string;
  query?: string;
  limit?: number;
}
