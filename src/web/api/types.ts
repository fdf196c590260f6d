// The shapes of Yeoul's HTTP API as the console reads them: the answers' types are the
// client's (inferred from the protocol's schemas); the rest are the console's own views.
import type {
  DocumentList,
  InvokeResponse,
  SearchResponse,
  StatusResponse,
} from '../../client/index.ts';

/** The invoke payload: the body of the stream's `done` event. */
export type DonePayload = InvokeResponse;
export type Usage = InvokeResponse['usage'];
export type Source = NonNullable<InvokeResponse['sources']>[number];
export type Evaluation = NonNullable<InvokeResponse['evaluation']>;
/** A tool call waiting for a person's decision. */
export type Interrupt = NonNullable<InvokeResponse['interrupts']>[number];
export type DocumentInfo = DocumentList['documents'][number];
export type SearchHit = SearchResponse['hits'][number];
export type AgentStatus = StatusResponse;

/** A chat graph: `chat`, `react`, `ops`, or one of the server's config file. */
export type GraphName = string;

export interface ToolCall {
  id: string;
  name: string;
  args: unknown;
}

/** A stored message of a session (`GET /api/sessions/:id`). */
export interface StoredMessage {
  id?: string;
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  toolCalls?: ToolCall[];
  toolCallId?: string;
  name?: string;
  isError?: boolean;
}

/** Where a fork came from: its original session and the step it was taken after. */
export interface ForkOrigin {
  sessionId: string;
  step: number;
}

export interface SessionSummary {
  sessionId: string;
  title?: string;
  status?: string;
  updatedAt?: string;
  /** Present when the session is a fork of another. */
  forkedFrom?: ForkOrigin;
}

export interface SessionDetail {
  sessionId: string;
  messages: StoredMessage[];
  summary?: string;
  interrupts?: Interrupt[];
  status?: string;
  /** The graph that runs the session (`chat` for the built-in agents). */
  graph?: string;
  /** A run is going in this session (rejoin it with GET /api/sessions/:id/stream). */
  running?: boolean;
  /** Present when the session is a fork of another. */
  forkedFrom?: ForkOrigin;
}

/** One stored step of a session (`GET /api/sessions/:id/history`). */
export interface HistoryStep {
  /** The entry's number in the session (what a fork takes). */
  step?: number;
  /** The run's super-step: the tasks of one share it. */
  superstep?: number;
  runId: string;
  node: string | null;
  kind?: string;
  /** Set on a subgraph's own steps: the node it runs as, then its inner node. */
  path?: string[];
  update: Record<string, unknown> | null;
  at: string | number;
}

/** One long-term memory item (GET /api/memory). */
export interface MemoryItemInfo {
  namespace: string;
  key: string;
  value: unknown;
  updatedAt: string;
}
/** An error in the contract's words: `{code, message}`. */
export interface ErrorInfo {
  code: string;
  message: string;
}

/** One scorer's verdict on an evaluation item. */
export interface EvalScore {
  scorer: string;
  score: number;
  passed: boolean;
  reason: string;
}

/** A scored item of an evaluation run. */
export interface EvalItem {
  id: string;
  input: string[];
  response: string;
  sessionId: string;
  passed: boolean;
  scores: EvalScore[];
  latencyMs: number;
}

/** An evaluation run (GET /api/evals/:id; the listing has no `items`). */
export interface EvalRun {
  id: string;
  name: string;
  graph: string;
  createdAt: string;
  status: 'running' | 'done' | 'failed';
  summary: {
    items: number;
    passed: number;
    failed: number;
    meanScore: number;
    byScorer: Record<string, number>;
  };
  items?: EvalItem[];
  error?: string;
}
