import {
  type FakeAnswerTurn,
  type FakeChatProvider,
  type FakeChatScript,
  startFake,
  words,
} from './fake-chat-providers.ts';
import type { FakeReply } from './fake-http-server.ts';

const generatePath = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/**
 * Google's Gemini API (`POST /v1beta/models/{model}:generateContent`, and
 * `:streamGenerateContent?alt=sse` answering in server-sent events, one
 * GenerateContentResponse each), as generativelanguage.googleapis.com answers: text and
 * functionCall parts, usageMetadata; errors as `{error: {code, message, status}}`. A request
 * without `x-goog-api-key` gets 403, a key other than `apiKey` 400 API_KEY_INVALID, as
 * Google answers them. Pass `${baseUrl}/v1beta` as GOOGLE_GENERATIVE_AI_BASE_URL.
 */
export async function startFakeGemini(
  script: FakeChatScript,
  apiKey: string,
): Promise<FakeChatProvider> {
  return startFake((path) => generatePath.test(path), script, {
    errorBody: (turn) => googleErrorBody(turn.status, turn.message),
    answer(turn, _body, request) {
      const [, model, method] = generatePath.exec(request.path) as unknown as string[];
      if (method === 'generateContent') {
        return { kind: 'json', body: chunk(model as string, partsOf(turn), true) };
      }
      if (request.query.get('alt') !== 'sse')
        return googleError(400, 'The fake speaks only alt=sse streams.');
      const pieces =
        turn.kind === 'text' ? words(turn.text).map((word) => [{ text: word }]) : [partsOf(turn)];
      const chunks = pieces.map((parts, index) =>
        chunk(model as string, parts, index === pieces.length - 1),
      );
      return {
        kind: 'text',
        contentType: 'text/event-stream',
        body: chunks.map((data) => `data: ${JSON.stringify(data)}\r\n\r\n`).join(''),
      };
    },
    check(request) {
      const key = request.headers['x-goog-api-key'];
      if (key === undefined) {
        return googleError(
          403,
          "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
        );
      }
      if (key !== apiKey)
        return googleError(
          400,
          'API key not valid. Please pass a valid API key.',
          'API_KEY_INVALID',
        );
      return undefined;
    },
  });
}

function partsOf(turn: FakeAnswerTurn): unknown[] {
  return turn.kind === 'text'
    ? [{ text: turn.text }]
    : [{ functionCall: { name: turn.name, args: turn.input } }];
}

/** One GenerateContentResponse; the last one of a stream carries the finish reason and usage. */
function chunk(model: string, parts: unknown[], last: boolean): Record<string, unknown> {
  return {
    candidates: [
      {
        content: { parts, role: 'model' },
        ...(last ? { finishReason: 'STOP' } : {}),
        index: 0,
      },
    ],
    usageMetadata: last
      ? { promptTokenCount: 23, candidatesTokenCount: 10, totalTokenCount: 33 }
      : { promptTokenCount: 23, totalTokenCount: 23 },
    modelVersion: model,
    responseId: 'fake-response-1',
  };
}

const statusNames: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

function googleError(status: number, message: string, reason?: string): FakeReply {
  return { kind: 'json', status, body: googleErrorBody(status, message, reason) };
}

function googleErrorBody(status: number, message: string, reason?: string): unknown {
  const details = reason
    ? [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason,
          domain: 'googleapis.com',
        },
      ]
    : [];
  return { error: { code: status, message, status: statusNames[status] ?? 'UNKNOWN', details } };
}
