export { YeoulApiError, type YeoulApiErrorInit } from './errors/yeoul-api-error.ts';
export type { ReconnectPolicy } from './follow-run.ts';
export { parseSse, type SseEvent } from './parse-sse.ts';
export type {
  AgentEvent,
  Decision,
  DocumentList,
  DocumentsCreated,
  DocumentsRequest,
  EventOf,
  ForkRequest,
  ForkResponse,
  GraphEvent,
  GraphList,
  GraphRunRequest,
  GraphRunResponse,
  InvokeRequest,
  InvokeResponse,
  RequestOptions,
  SearchResponse,
  Session,
  SessionHistory,
  SessionList,
  StatusResponse,
} from './types.ts';
export { type DocumentUpload, YeoulClient, type YeoulClientOptions } from './yeoul-client.ts';
