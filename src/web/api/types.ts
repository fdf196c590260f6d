// The shapes of Yeoul's HTTP API as the console reads them (../shared/CONTRACT.md "HTTP API").

/** A chat graph: `chat`, `react`, `ops`, or one of the server's config file. */
export type GraphName = string;

export interface Usage {
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
}

export interface ToolCall {
  id: string;
  name: string;
  args: unknown;
}

/** A stored message of a session (`GET /api/sessions/:id`). */
export interface StoredMessage {
  id?: string;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  toolCalls?: ToolCall[];
  toolCallId?: string;
  name?: string;
  isError?: boolean;
}

/** A tool call waiting for a person's decision. */
export interface Interrupt {
  id: string;
  type: string;
  tool: string;
  args: unknown;
  createdAt?: string;
}

export interface Source {
  documentId: string;
  chunkId: string;
  title: string;
}

export interface EvaluationCheck {
  name: string;
  score: number;
  passed: boolean;
  feedback?: string;
}

export interface Evaluation {
  score: number;
  verdict: string;
  checks: EvaluationCheck[];
}

/** The invoke payload: the body of the stream's `done` event. */
export interface DonePayload {
  response: string;
  sessionId: string;
  toolsUsed: string[];
  executionTime: number;
  status: 'published' | 'rejected' | 'error' | 'interrupted' | 'cancelled';
  error?: true;
  errorCode?: string;
  interrupts?: Interrupt[];
  sources?: Source[];
  steps: string[];
  usage?: Usage;
  evaluation?: Evaluation;
}

export interface SessionSummary {
  sessionId: string;
  title?: string;
  status?: string;
  updatedAt?: string;
}

export interface SessionDetail {
  sessionId: string;
  messages: StoredMessage[];
  summary?: string;
  interrupts?: Interrupt[];
  status?: string;
  /** A run is going in this session (rejoin it with GET /api/sessions/:id/stream). */
  running?: boolean;
}

/** One stored step of a session (`GET /api/sessions/:id/history`). */
export interface HistoryStep {
  runId: string;
  node: string | null;
  kind?: string;
  update: Record<string, unknown> | null;
  at: string | number;
}

export interface DocumentInfo {
  id: string;
  title: string;
  chunks: number;
  metadata?: Record<string, unknown>;
  updatedAt?: string;
}

export interface SearchHit {
  documentId: string;
  chunkId: string;
  title: string;
  text: string;
  score: number;
}

export interface AgentStatus {
  status: string;
  version?: string;
  model: string;
  lastModelError?: { code: string; message: string; at: string } | null;
  /** The config file's state (`yeoul dev` reports a broken save here until it is fixed). */
  config?: { state: 'ok' | 'error'; error?: string; loadedAt: string };
}

/** An error in the contract's words: `{code, message}`. */
export interface ErrorInfo {
  code: string;
  message: string;
}
