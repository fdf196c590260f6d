// The shapes of Yeoul's HTTP API as the console reads them: each is the client's type
// (inferred from the protocol's schemas), named for what the console shows.
import type {
  AgentEvent,
  DocumentList,
  EvalRunList,
  ForkResponse,
  GraphList,
  InvokeResponse,
  MemoryItem,
  SearchResponse,
  Session,
  SessionHistory,
  SessionList,
  StatusResponse,
  EvalRun as StoredEvalRun,
} from '../../client/index.ts';

/** The invoke payload: the body of the stream's `done` event. */
export type DonePayload = InvokeResponse;
/** A run's model calls and tokens. */
export type Usage = InvokeResponse['usage'];
/** A document an answer drew on. */
export type Source = NonNullable<InvokeResponse['sources']>[number];
/** The evaluation loop's scores of an answer. */
export type Evaluation = NonNullable<InvokeResponse['evaluation']>;
/** What one guardrail did to a message, an answer, a tool call or its result. */
export type GuardrailRecord = NonNullable<InvokeResponse['guardrails']>[number];
/** The guardrail that blocked a turn or its answer. */
export type GuardrailBlock = NonNullable<InvokeResponse['guardrail']>;
/** A tool call waiting for a person's decision. */
export type Interrupt = NonNullable<InvokeResponse['interrupts']>[number];
/** A document of the knowledge base (GET /api/documents). */
export type DocumentInfo = DocumentList['documents'][number];
/** A passage a search found (POST /api/search). */
export type SearchHit = SearchResponse['hits'][number];
/** The server's state (GET /api/agent/status). */
export type AgentStatus = StatusResponse;

/** A graph's name, as GET /api/graphs lists the server's graphs. */
export type GraphName = GraphList['graphs'][number]['name'];

/** A stored message of a session (`GET /api/sessions/:id`). */
export type StoredMessage = Session['messages'][number];

/** Where a fork came from: its original session and the step it was taken after. */
export type ForkOrigin = ForkResponse['forkedFrom'];

/** A session as `GET /api/sessions` lists it. */
export type SessionSummary = SessionList['sessions'][number];

/** A session with its messages (`GET /api/sessions/:id`). */
export type SessionDetail = Session;

/** One stored step of a session (`GET /api/sessions/:id/history`). */
export type HistoryStep = SessionHistory['steps'][number];

/** One long-term memory item (GET /api/memory). */
export type MemoryItemInfo = MemoryItem;

/** An error in the contract's words: `{code, message}` (the data of a stream's `error` event). */
export type ErrorInfo = Extract<AgentEvent, { event: 'error' }>['data'];

/** A scored item of an evaluation run. */
export type EvalItem = StoredEvalRun['items'][number];

/** An evaluation run (GET /api/evals/:id; the listing has no `items`). */
export type EvalRun = EvalRunList['runs'][number] & { items?: EvalItem[] };
