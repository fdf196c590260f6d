import {
  type FakeHttpServer,
  type FakeReply,
  type RecordedRequest,
  startFakeHttpServer,
} from './fake-http-server.ts';

/** What a fake provider answers one chat request with. */
export type FakeChatTurn =
  | { kind: 'text'; text: string }
  | { kind: 'tool-call'; name: string; input: Record<string, unknown> }
  | {
      kind: 'error';
      status: number;
      message: string;
      headers?: Record<string, string>;
      /** On a streamed request, sent inside the stream once it began (where the API can). */
      midStream?: boolean;
    };

/** A fake chat provider: the HTTP server, and the parsed JSON bodies it was sent. */
export interface FakeChatProvider {
  /** The base URL the provider's client is given. */
  baseUrl: string;
  server: FakeHttpServer;
  bodies(): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/** The turns a fake answers with, in order (the last repeats), or a function of each request. */
export type FakeChatScript =
  | FakeChatTurn[]
  | ((body: Record<string, unknown>, index: number) => FakeChatTurn);
type Script = FakeChatScript;

function turnFor(script: Script, body: Record<string, unknown>, index: number): FakeChatTurn {
  return typeof script === 'function'
    ? script(body, index)
    : (script[Math.min(index, script.length - 1)] as FakeChatTurn);
}

/** The text of an answer cut where a streaming provider would send it: word by word. */
export const words = (text: string) => text.split(/(?<=\s)/);

/** A turn the fake answers with, not an error. */
export type FakeAnswerTurn = Exclude<FakeChatTurn, { kind: 'error' }>;

/** How one provider's fake speaks: its answers, its error bodies, its authentication. */
export interface FakeChatDialect {
  answer(turn: FakeAnswerTurn, body: Record<string, unknown>, request: RecordedRequest): FakeReply;
  /** The JSON body of an error turn, in the provider's own shape. */
  errorBody(turn: Extract<FakeChatTurn, { kind: 'error' }>): unknown;
  /** Headers the provider adds to its errors (the script's own come on top). */
  errorHeaders?(turn: Extract<FakeChatTurn, { kind: 'error' }>): Record<string, string>;
  /** The reply to a `midStream` error turn on a streamed request; undefined: a plain error. */
  streamError?(
    turn: Extract<FakeChatTurn, { kind: 'error' }>,
    body: Record<string, unknown>,
    request: RecordedRequest,
  ): FakeReply | undefined;
  /** Refuses a request (a reply) that is not authenticated; undefined lets it through. */
  check?(request: RecordedRequest): FakeReply | undefined;
}

/**
 * A fake chat provider on `route` (a path, or a test of one): each POST there is checked
 * by the dialect (authentication; a reply refuses it), then answered with the script's
 * next turn. Other requests get 404.
 */
export async function startFake(
  route: string | ((path: string) => boolean),
  script: Script,
  dialect: FakeChatDialect,
): Promise<FakeChatProvider & { index: () => number }> {
  const matches = typeof route === 'string' ? (path: string) => path === route : route;
  let index = 0;
  const server = await startFakeHttpServer((request) => {
    if (request.method !== 'POST' || !matches(request.path)) {
      return { kind: 'text', status: 404, body: `no route ${request.method} ${request.path}` };
    }
    const refused = dialect.check?.(request);
    if (refused) return refused;
    const body = JSON.parse(request.body) as Record<string, unknown>;
    const turn = turnFor(script, body, index);
    index += 1;
    if (turn.kind !== 'error') return dialect.answer(turn, body, request);
    const inStream = turn.midStream ? dialect.streamError?.(turn, body, request) : undefined;
    if (inStream) return inStream;
    const headers = { ...dialect.errorHeaders?.(turn), ...turn.headers };
    return { kind: 'json', status: turn.status, body: dialect.errorBody(turn), headers };
  });
  return {
    baseUrl: server.url,
    server,
    index: () => index,
    bodies: () =>
      server.requests
        .filter((request) => matches(request.path))
        .map((request) => JSON.parse(request.body) as Record<string, unknown>),
    close: () => server.close(),
  };
}

/**
 * Anthropic's Messages API (`POST /v1/messages`), as the real one answers: JSON, or
 * server-sent events (message_start, content_block_start/delta/stop, message_delta,
 * message_stop) with text deltas and tool_use input as partial JSON; errors as
 * `{type: 'error', error: {type, message}}`. Requests without `x-api-key` get 401.
 * Pass `${baseUrl}/v1` to the client.
 */
export async function startFakeAnthropic(script: Script): Promise<FakeChatProvider> {
  return startFake('/v1/messages', script, {
    errorBody: (turn) => ({
      type: 'error',
      error: { type: anthropicErrorType(turn.status), message: turn.message },
    }),
    answer(turn, body) {
      const model = String(body.model);
      const usage = { input_tokens: 21, output_tokens: 9 };
      const block =
        turn.kind === 'text'
          ? { type: 'text', text: turn.text }
          : { type: 'tool_use', id: 'toolu_fake_1', name: turn.name, input: turn.input };
      const stopReason = turn.kind === 'text' ? 'end_turn' : 'tool_use';
      if (body.stream !== true) {
        return {
          kind: 'json',
          body: {
            id: 'msg_fake_1',
            type: 'message',
            role: 'assistant',
            model,
            content: [block],
            stop_reason: stopReason,
            stop_sequence: null,
            usage,
          },
        };
      }
      const events: Array<[string, unknown]> = [
        [
          'message_start',
          {
            type: 'message_start',
            message: {
              id: 'msg_fake_1',
              type: 'message',
              role: 'assistant',
              model,
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
            },
          },
        ],
      ];
      if (turn.kind === 'text') {
        events.push([
          'content_block_start',
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        ]);
        for (const word of words(turn.text)) {
          events.push([
            'content_block_delta',
            { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: word } },
          ]);
        }
      } else {
        events.push([
          'content_block_start',
          {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'tool_use', id: 'toolu_fake_1', name: turn.name, input: {} },
          },
        ]);
        const json = JSON.stringify(turn.input);
        const middle = Math.ceil(json.length / 2);
        for (const part of [json.slice(0, middle), json.slice(middle)]) {
          events.push([
            'content_block_delta',
            {
              type: 'content_block_delta',
              index: 0,
              delta: { type: 'input_json_delta', partial_json: part },
            },
          ]);
        }
      }
      events.push(
        ['content_block_stop', { type: 'content_block_stop', index: 0 }],
        [
          'message_delta',
          {
            type: 'message_delta',
            delta: { stop_reason: stopReason, stop_sequence: null },
            usage: { output_tokens: usage.output_tokens },
          },
        ],
        ['message_stop', { type: 'message_stop' }],
      );
      return {
        kind: 'text',
        contentType: 'text/event-stream',
        body: events
          .map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`)
          .join(''),
      };
    },
    check: (request) =>
      request.headers['x-api-key']
        ? undefined
        : {
            kind: 'json',
            status: 401,
            body: {
              type: 'error',
              error: { type: 'authentication_error', message: 'x-api-key header is required' },
            },
          },
  });
}

function anthropicErrorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 529) return 'overloaded_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

/**
 * Ollama's native chat API (`POST /api/chat`), as a local Ollama answers: one JSON
 * object, or newline-delimited JSON chunks ending with `done: true` and the token
 * counts; tool calls with object arguments; errors as `{error: "…"}`.
 * Pass `baseUrl` as OLLAMA_BASE_URL.
 */
export async function startFakeOllama(script: Script): Promise<FakeChatProvider> {
  return startFake('/api/chat', script, {
    errorBody: (turn) => ({ error: turn.message }),
    answer(turn, body) {
      const model = String(body.model);
      const created_at = '2026-11-22T00:00:00.000000Z';
      const last = {
        model,
        created_at,
        message: { role: 'assistant', content: '' },
        done: true,
        done_reason: 'stop',
        total_duration: 1_000_000,
        prompt_eval_count: 26,
        eval_count: 12,
      };
      const toolMessage =
        turn.kind === 'tool-call'
          ? {
              role: 'assistant',
              content: '',
              tool_calls: [{ function: { name: turn.name, arguments: turn.input } }],
            }
          : undefined;
      if (body.stream === false) {
        return {
          kind: 'json',
          body: {
            ...last,
            message: toolMessage ?? { role: 'assistant', content: (turn as { text: string }).text },
          },
        };
      }
      const chunks =
        turn.kind === 'text'
          ? words(turn.text).map((word) => ({
              model,
              created_at,
              message: { role: 'assistant', content: word },
              done: false,
            }))
          : [{ model, created_at, message: toolMessage, done: false }];
      return {
        kind: 'text',
        contentType: 'application/x-ndjson',
        body: [...chunks, last].map((chunk) => `${JSON.stringify(chunk)}\n`).join(''),
      };
    },
  });
}
