import { YeoulApiError } from './errors/yeoul-api-error.ts';
import { followRun, type ReconnectPolicy } from './follow-run.ts';
import type {
  AgentEvent,
  Decision,
  DocumentList,
  DocumentsCreated,
  DocumentsRequest,
  EvalRun,
  EvalRunList,
  EvalRunRequest,
  EvalRunStarted,
  FeedbackRequest,
  FeedbackSaved,
  ForkRequest,
  ForkResponse,
  GraphEvent,
  GraphList,
  GraphRunRequest,
  GraphRunResponse,
  InvokeRequest,
  InvokeResponse,
  Me,
  MemoryItem,
  MemoryList,
  MemoryListQuery,
  RequestOptions,
  SearchResponse,
  Session,
  SessionHistory,
  SessionList,
  StatusResponse,
} from './types.ts';

/** Where the server is and how to reach it. */
export interface YeoulClientOptions {
  /** The server's address, e.g. `http://127.0.0.1:8787` (`''` in a page the server serves). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>` when the server has `YEOUL_API_KEYS`. */
  apiKey?: string;
  /** The fetch to use (default the global one): a proxy agent, a test double, a wrapper. */
  fetch?: typeof fetch;
  /** How a stream that drops before `done` is rejoined. */
  reconnect?: ReconnectPolicy;
}

/** A file to upload to the knowledge base, with the fields `POST /api/documents` takes beside it. */
export interface DocumentUpload {
  file: Blob;
  /** The file's name (its extension picks the parser); the document id unless `id` is given. */
  filename: string;
  id?: string;
  title?: string;
  metadata?: Record<string, unknown>;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * A typed client of Yeoul's HTTP API, for Node and browsers. Every method's body and answer
 * types come from the zod schemas the server validates with; an error answer is thrown as a
 * `YeoulApiError`.
 * @example
 * const client = new YeoulClient({ baseUrl: 'http://127.0.0.1:8787' });
 * const answer = await client.invoke({ message: '123 * 456 계산해줘' });
 * for await (const event of client.stream({ message: '안녕', sessionId: answer.sessionId })) {
 *   if (event.event === 'token') process.stdout.write(event.data.text);
 * }
 */
export class YeoulClient {
  readonly #baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #fetch: typeof fetch;
  readonly #reconnect: ReconnectPolicy | undefined;

  constructor(options: YeoulClientOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#reconnect = options.reconnect;
  }

  /** Runs the agent on a message (or resumes a paused run) and returns its answer. */
  invoke(body: InvokeRequest, options: RequestOptions = {}): Promise<InvokeResponse> {
    return this.#json('POST', '/api/agent/invoke', body, options);
  }

  /**
   * Runs the agent and yields its events as they happen, ending after `done`. A connection
   * that drops first is rejoined (`GET /api/sessions/:id/stream` with `Last-Event-ID`): no
   * event is lost or repeated. Without a `sessionId` the client picks one, so that it can rejoin.
   */
  stream(body: InvokeRequest, options: RequestOptions = {}): AsyncGenerator<AgentEvent, void> {
    const sessionId = body.sessionId ?? newSessionId();
    return this.#follow<AgentEvent>(
      () => this.#send('POST', '/api/agent/stream', { ...body, sessionId }, options, eventStream),
      sessionId,
      options,
    );
  }

  /** Decides on a paused run's pending tool calls and returns the run's next answer. */
  resume(
    sessionId: string,
    decisions: Decision[],
    options: RequestOptions = {},
  ): Promise<InvokeResponse> {
    return this.invoke({ sessionId, resume: { decisions } }, options);
  }

  /** `GET /api/agent/status`: the model, tools, store, search and MCP servers. */
  status(options: RequestOptions = {}): Promise<StatusResponse> {
    return this.#json('GET', '/api/agent/status', undefined, options);
  }

  /** `GET /api/me`: who the server takes these credentials for, and what they may do. */
  me(options: RequestOptions = {}): Promise<Me> {
    return this.#json('GET', '/api/me', undefined, options);
  }

  /** The knowledge base's passages that best answer `query`, best first. */
  search(query: string, k?: number, options: RequestOptions = {}): Promise<SearchResponse> {
    return this.#json('POST', '/api/search', k === undefined ? { query } : { query, k }, options);
  }

  /** Conversations: list, read, replay, delete, fork, stop, and join a running run. */
  readonly sessions = {
    list: (options: RequestOptions = {}): Promise<SessionList> =>
      this.#json('GET', '/api/sessions', undefined, options),
    get: (id: string, options: RequestOptions = {}): Promise<Session> =>
      this.#json('GET', sessionPath(id), undefined, options),
    history: (id: string, options: RequestOptions = {}): Promise<SessionHistory> =>
      this.#json('GET', `${sessionPath(id)}/history`, undefined, options),
    delete: (id: string, options: RequestOptions = {}): Promise<void> =>
      this.#json('DELETE', sessionPath(id), undefined, options),
    fork: (id: string, body: ForkRequest, options: RequestOptions = {}): Promise<ForkResponse> =>
      this.#json('POST', `${sessionPath(id)}/fork`, body, options),
    /** Rates the session's last answer: 👍 (`rating: 1`) or 👎 (`rating: -1`). */
    feedback: (
      id: string,
      body: FeedbackRequest,
      options: RequestOptions = {},
    ): Promise<FeedbackSaved> => this.#json('POST', `${sessionPath(id)}/feedback`, body, options),
    /** Stops the session's run (or abandons an interrupted one). */
    cancel: (id: string, options: RequestOptions = {}): Promise<void> =>
      this.#json('POST', `${sessionPath(id)}/cancel`, undefined, options).then(() => undefined),
    /** Joins the session's running run: the events after `lastEventId`, then live ones. */
    join: (
      id: string,
      options: RequestOptions & { lastEventId?: string } = {},
    ): AsyncGenerator<AgentEvent, void> =>
      this.#follow<AgentEvent>(
        () => this.#rejoin(id, options.lastEventId, options),
        id,
        options,
        options.lastEventId,
      ),
  };

  /** The owner's long-term memory: items by namespace and key. */
  readonly memory = {
    list: (query: MemoryListQuery = {}, options: RequestOptions = {}): Promise<MemoryList> =>
      this.#json('GET', `/api/memory${queryString(query)}`, undefined, options),
    get: (namespace: string, key: string, options: RequestOptions = {}): Promise<MemoryItem> =>
      this.#json('GET', memoryPath(namespace, key), undefined, options),
    put: (
      namespace: string,
      key: string,
      value: unknown,
      options: RequestOptions = {},
    ): Promise<MemoryItem> => this.#json('PUT', memoryPath(namespace, key), { value }, options),
    delete: (namespace: string, key: string, options: RequestOptions = {}): Promise<void> =>
      this.#json('DELETE', memoryPath(namespace, key), undefined, options),
  };

  /** Evaluation runs: start one in the background, list them, read one with its items. */
  readonly evals = {
    start: (body: EvalRunRequest, options: RequestOptions = {}): Promise<EvalRunStarted> =>
      this.#json('POST', '/api/evals', body, options),
    list: (options: RequestOptions = {}): Promise<EvalRunList> =>
      this.#json('GET', '/api/evals', undefined, options),
    get: (id: string, options: RequestOptions = {}): Promise<EvalRun> =>
      this.#json('GET', `/api/evals/${encodeURIComponent(id)}`, undefined, options),
  };

  /** The knowledge base's documents: add (JSON or a file upload), list, delete. */
  readonly documents = {
    add: (body: DocumentsRequest, options: RequestOptions = {}): Promise<DocumentsCreated> =>
      this.#json('POST', '/api/documents', body, options),
    upload: (upload: DocumentUpload, options: RequestOptions = {}): Promise<DocumentsCreated> =>
      this.#json('POST', '/api/documents', uploadForm(upload), options),
    list: (options: RequestOptions = {}): Promise<DocumentList> =>
      this.#json('GET', '/api/documents', undefined, options),
    delete: (id: string, options: RequestOptions = {}): Promise<void> =>
      this.#json('DELETE', `/api/documents/${encodeURIComponent(id)}`, undefined, options),
  };

  /** Any graph, built-in or the config file's: list them, run one, stream a run. */
  readonly graphs = {
    list: (options: RequestOptions = {}): Promise<GraphList> =>
      this.#json('GET', '/api/graphs', undefined, options),
    invoke: (
      name: string,
      body: GraphRunRequest,
      options: RequestOptions = {},
    ): Promise<GraphRunResponse> => this.#json('POST', graphPath(name, 'invoke'), body, options),
    /** A graph run's events, ending after `done`; rejoined like `stream` when the connection drops. */
    stream: (
      name: string,
      body: GraphRunRequest,
      options: RequestOptions = {},
    ): AsyncGenerator<GraphEvent, void> => {
      const threadId = body.threadId ?? newSessionId();
      return this.#follow<GraphEvent>(
        () =>
          this.#send(
            'POST',
            graphPath(name, 'stream'),
            { ...body, threadId },
            options,
            eventStream,
          ),
        threadId,
        options,
      );
    },
  };

  #follow<Event>(
    start: () => Promise<Response>,
    sessionId: string,
    options: RequestOptions,
    lastEventId?: string,
  ): AsyncGenerator<Event, void> {
    return followRun({
      start,
      ...(lastEventId === undefined ? {} : { lastEventId }),
      rejoin: (lastEventId) => this.#rejoin(sessionId, lastEventId, options),
      ...(this.#reconnect ? { reconnect: this.#reconnect } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    }) as AsyncGenerator<Event, void>;
  }

  #rejoin(sessionId: string, lastEventId: string | undefined, options: RequestOptions) {
    const headers =
      lastEventId === undefined ? eventStream : { ...eventStream, 'last-event-id': lastEventId };
    return this.#send('GET', `${sessionPath(sessionId)}/stream`, undefined, options, headers);
  }

  /** Sends a request and reads its JSON answer (`undefined` for an empty one, e.g. 204). */
  async #json<T>(method: Method, path: string, body: unknown, options: RequestOptions): Promise<T> {
    const response = await this.#send(method, path, body, options);
    const text = await response.text();
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  /** Sends a request; an error answer or a network failure is thrown as a YeoulApiError. */
  async #send(
    method: Method,
    path: string,
    body: unknown,
    options: RequestOptions,
    extraHeaders: Record<string, string> = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
    if (this.#apiKey !== undefined) headers.authorization = `Bearer ${this.#apiKey}`;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    let response: Response;
    try {
      response = await this.#fetch(this.#baseUrl + path, {
        method,
        headers,
        ...(payload === undefined ? {} : { body: payload }),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new YeoulApiError({
        status: 0,
        code: 'network_error',
        message: `${method} ${path}: ${(error as Error).message}`,
        cause: error,
      });
    }
    if (!response.ok) throw await apiErrorOf(response);
    return response;
  }
}

const eventStream = { accept: 'text/event-stream' };

const sessionPath = (id: string) => `/api/sessions/${encodeURIComponent(id)}`;
const graphPath = (name: string, verb: 'invoke' | 'stream') =>
  `/api/graphs/${encodeURIComponent(name)}/${verb}`;

/** The error of an answer that is not a success: its `{error: {code, message}}`, else its status. */
async function apiErrorOf(response: Response): Promise<YeoulApiError> {
  const requestId = response.headers.get('x-request-id') ?? undefined;
  const text = await response.text().catch(() => '');
  try {
    const { error } = JSON.parse(text) as {
      error?: { code?: unknown; message?: unknown; details?: unknown };
    };
    if (typeof error?.code === 'string') {
      return new YeoulApiError({
        status: response.status,
        code: error.code,
        message: typeof error.message === 'string' ? error.message : response.statusText,
        details: error.details,
        ...(requestId ? { requestId } : {}),
      });
    }
  } catch {
    // Not JSON (a proxy's error page): the status speaks for it.
  }
  return new YeoulApiError({
    status: response.status,
    code: `http_${response.status}`,
    message: text.slice(0, 500) || response.statusText || `HTTP ${response.status}`,
    ...(requestId ? { requestId } : {}),
  });
}

function uploadForm(upload: DocumentUpload): FormData {
  const form = new FormData();
  if (upload.id !== undefined) form.append('id', upload.id);
  if (upload.title !== undefined) form.append('title', upload.title);
  if (upload.metadata !== undefined) form.append('metadata', JSON.stringify(upload.metadata));
  form.append('file', upload.file, upload.filename);
  return form;
}

/** A session id for a stream that names none: 32 random hex digits (crypto.randomUUID needs HTTPS in browsers). */
function newSessionId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The path of a memory item: the namespace's segments and the key, each encoded. */
function memoryPath(namespace: string, key: string): string {
  return `/api/memory/${[...namespace.split('/'), key].map(encodeURIComponent).join('/')}`;
}

/** `?prefix=…&query=…&limit=…` of the values given. */
function queryString(query: MemoryListQuery): string {
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) parameters.set(name, String(value));
  }
  const text = parameters.toString();
  return text ? `?${text}` : '';
}
