import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake answers one chat-completions request. */
export type FakeCompletion =
  /** A text answer, streamed in `chunks` (default: word by word) when the request streams. */
  | {
      kind: 'text';
      text: string;
      chunks?: string[];
      usage?: { prompt: number; completion: number };
      /** When streamed, the chunks after the first wait for it (a model still writing). */
      holdRest?: Promise<unknown>;
    }
  /**
   * Tool calls, after `text` when given (a model saying what it is about to do: streamed word
   * by word first); when streamed, each call's arguments arrive in `argumentPieces` pieces.
   */
  | {
      kind: 'tool-calls';
      calls: Array<{ id: string; name: string; arguments: string }>;
      argumentPieces?: number;
      text?: string;
    }
  | { kind: 'error'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Never answers. */
  | { kind: 'hang' }
  /** 200 with a body that is not valid JSON (a broken SSE event when streaming). */
  | { kind: 'malformed' }
  /** Streams the first chunks of `text`, then drops the connection. */
  | { kind: 'truncated'; text: string }
  /** Streams `text` (a request that does not stream gets nothing), then never finishes. */
  | { kind: 'stall'; text: string };

/** A request the fake received: the parsed JSON body and the headers. */
export interface ChatCompletionRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: {
    model: string;
    messages: Array<{
      role: string;
      content: unknown;
      tool_calls?: unknown[];
      tool_call_id?: string;
    }>;
    stream?: boolean;
    tools?: Array<{
      type: string;
      function: { name: string; description?: string; parameters: unknown };
    }>;
    temperature?: number;
    max_tokens?: number;
    max_completion_tokens?: number;
    response_format?: unknown;
  };
}

/** A local server speaking OpenAI's chat-completions (streaming included) and embeddings wire formats. */
export interface FakeOpenAiServer {
  /** Base URL ending in `/v1`, for OPENAI_BASE_URL or YEOUL_COMPAT_BASE_URL. */
  baseUrl: string;
  requests: ChatCompletionRequest[];
  /** Inputs of every embeddings request, in order. */
  embeddingRequests: string[][];
  close(): Promise<void>;
}

/**
 * Starts the fake. `script` answers the requests in order (the last entry repeats), or
 * is a function of the request.
 * @example
 * const fake = await startFakeOpenAiServer([{ kind: 'text', text: '안녕하세요' }]);
 */
export async function startFakeOpenAiServer(
  script: FakeCompletion[] | ((request: ChatCompletionRequest, index: number) => FakeCompletion),
  options: {
    /** How long each answer waits (ms): a number, or a function of the request. */
    delayMs?: number | ((request: ChatCompletionRequest) => number);
    keepRequests?: boolean;
    port?: number;
    /** How long an idle keep-alive connection stays open (Node's default: 5 s). */
    keepAliveTimeoutMs?: number;
  } = {},
): Promise<FakeOpenAiServer> {
  const requests: ChatCompletionRequest[] = [];
  const embeddingRequests: string[][] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const path = new URL(incoming.url ?? '/', 'http://127.0.0.1').pathname;
      if (incoming.method === 'POST' && path.endsWith('/embeddings')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          input: string | string[];
          model: string;
        };
        const inputs = Array.isArray(body.input) ? body.input : [body.input];
        embeddingRequests.push(inputs);
        sendJson(response, 200, {
          object: 'list',
          data: inputs.map((input, index) => ({
            object: 'embedding',
            index,
            embedding: fakeEmbedding(input),
          })),
          model: body.model,
          usage: { prompt_tokens: inputs.length * 8, total_tokens: inputs.length * 8 },
        });
        return;
      }
      if (incoming.method !== 'POST' || !path.endsWith('/chat/completions')) {
        sendJson(response, 404, {
          error: { message: `no route ${incoming.method} ${path}`, type: 'invalid_request_error' },
        });
        return;
      }
      const request: ChatCompletionRequest = {
        path,
        headers: incoming.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      };
      const index = requests.push(request) - 1;
      const completion = Array.isArray(script)
        ? (script[Math.min(index, script.length - 1)] as FakeCompletion)
        : script(request, index);
      if (options.keepRequests === false) requests.length = 0;
      const delay =
        typeof options.delayMs === 'function' ? options.delayMs(request) : options.delayMs;
      if (delay) setTimeout(() => answer(response, request, completion), delay);
      else answer(response, request, completion);
    });
  });
  if (options.keepAliveTimeoutMs !== undefined)
    server.keepAliveTimeout = options.keepAliveTimeoutMs;
  // As a hosted model API does, a burst of a thousand new connections is accepted, none of
  // their SYNs dropped (Node's default backlog of 511 makes the dropped ones retry after 1–7 s).
  await new Promise<void>((resolve) =>
    server.listen({ port: options.port ?? 0, host: '127.0.0.1', backlog: 4096 }, resolve),
  );
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    embeddingRequests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Each completion gets its own id, as OpenAI's do: clients that merge messages by id
// (LangGraph's messages reducer) would otherwise take a turn's answer for its tool call.
let completions = 0;

function answer(
  response: ServerResponse,
  request: ChatCompletionRequest,
  completion: FakeCompletion,
): void {
  const model = request.body.model;
  const completionId = `chatcmpl-fake-${++completions}`;
  switch (completion.kind) {
    case 'hang':
      return;
    case 'stall':
      if (!request.body.stream) return;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(event(chunk(completionId, model, { content: completion.text }, null)));
      return;
    case 'error':
      sendJson(
        response,
        completion.status,
        completion.body ?? {
          error: { message: `fake error ${completion.status}`, type: 'server_error' },
        },
        completion.headers,
      );
      return;
    case 'malformed':
      if (request.body.stream) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end('data: {"id":"chatcmpl-x","choices":[{"index":0,"delta":{"content":\n\n');
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"id":"chatcmpl-x","choices":[');
      }
      return;
    case 'truncated': {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const words = completion.text.split(/(?<=\s)/);
      for (const word of words.slice(0, Math.max(1, Math.floor(words.length / 2)))) {
        response.write(event(chunk(completionId, model, { content: word }, null)));
      }
      setTimeout(() => response.socket?.destroy(), 20);
      return;
    }
    case 'text':
    case 'tool-calls':
      if (request.body.stream) void streamCompletion(response, completionId, model, completion);
      else sendJson(response, 200, wholeCompletion(completionId, model, completion));
  }
}

async function streamCompletion(
  response: ServerResponse,
  completionId: string,
  model: string,
  completion: Extract<FakeCompletion, { kind: 'text' | 'tool-calls' }>,
): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.write(event(chunk(completionId, model, { role: 'assistant', content: '' }, null)));
  if (completion.kind === 'text') {
    const pieces = completion.chunks ?? completion.text.split(/(?<=\s)/);
    for (const [index, piece] of pieces.entries()) {
      if (index === 1 && completion.holdRest) await completion.holdRest;
      response.write(event(chunk(completionId, model, { content: piece }, null)));
    }
    response.write(event(chunk(completionId, model, {}, 'stop')));
  } else {
    for (const piece of completion.text?.split(/(?<=\s)/) ?? []) {
      response.write(event(chunk(completionId, model, { content: piece }, null)));
    }
    completion.calls.forEach((call, index) => {
      response.write(
        event(
          chunk(
            completionId,
            model,
            {
              tool_calls: [
                {
                  index,
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: '' },
                },
              ],
            },
            null,
          ),
        ),
      );
      for (const piece of split(call.arguments, completion.argumentPieces ?? 3)) {
        response.write(
          event(
            chunk(
              completionId,
              model,
              { tool_calls: [{ index, function: { arguments: piece } }] },
              null,
            ),
          ),
        );
      }
    });
    response.write(event(chunk(completionId, model, {}, 'tool_calls')));
  }
  const usage = completion.kind === 'text' ? completion.usage : undefined;
  response.write(
    event({
      id: completionId,
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model,
      choices: [],
      usage: {
        prompt_tokens: usage?.prompt ?? 11,
        completion_tokens: usage?.completion ?? 7,
        total_tokens: (usage?.prompt ?? 11) + (usage?.completion ?? 7),
      },
    }),
  );
  response.end('data: [DONE]\n\n');
}

function wholeCompletion(
  completionId: string,
  model: string,
  completion: Extract<FakeCompletion, { kind: 'text' | 'tool-calls' }>,
) {
  const message =
    completion.kind === 'text'
      ? { role: 'assistant', content: completion.text }
      : {
          role: 'assistant',
          content: completion.text ?? null,
          tool_calls: completion.calls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.arguments },
          })),
        };
  const usage = completion.kind === 'text' ? completion.usage : undefined;
  return {
    id: completionId,
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [
      { index: 0, message, finish_reason: completion.kind === 'text' ? 'stop' : 'tool_calls' },
    ],
    usage: {
      prompt_tokens: usage?.prompt ?? 11,
      completion_tokens: usage?.completion ?? 7,
      total_tokens: (usage?.prompt ?? 11) + (usage?.completion ?? 7),
    },
  };
}

function chunk(
  completionId: string,
  model: string,
  delta: Record<string, unknown>,
  finishReason: string | null,
) {
  return {
    id: completionId,
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

function event(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

function split(text: string, pieces: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / pieces));
  const result: string[] = [];
  for (let index = 0; index < text.length; index += size)
    result.push(text.slice(index, index + size));
  return result.length > 0 ? result : [''];
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/**
 * A deterministic stand-in for a sentence embedding: character trigrams of each word
 * (the word itself when shorter) hashed into `dimensions` buckets and L2-normalised, so
 * texts sharing words, or most of a misspelt word, get close vectors.
 */
export function fakeEmbedding(text: string, dimensions = 256): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const compact = text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ');
  for (const word of compact.split(' ').filter(Boolean)) {
    const grams =
      word.length <= 3
        ? [word]
        : Array.from({ length: word.length - 2 }, (_, index) => word.slice(index, index + 3));
    for (const gram of grams) {
      let hash = 2166136261;
      for (const char of gram) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 16777619);
      const bucket = (hash >>> 0) % dimensions;
      vector[bucket] = (vector[bucket] ?? 0) + 1;
    }
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}
