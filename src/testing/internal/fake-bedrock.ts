import { crc32 } from 'node:zlib';
import { checkSignatureV4, type FakeAwsCredentials } from './fake-aws-signature.ts';
import {
  type FakeAnswerTurn,
  type FakeChatProvider,
  type FakeChatScript,
  startFake,
  words,
} from './fake-chat-providers.ts';

const conversePath = /^\/model\/([^/]+)\/(converse|converse-stream)$/;

/**
 * Amazon Bedrock's Converse API (`POST /model/{modelId}/converse`, and `/converse-stream`
 * answering in AWS's binary event-stream framing: messageStart, contentBlockStart/Delta/Stop,
 * messageStop, metadata), as bedrock-runtime answers. Every request must carry a valid
 * SigV4 signature for `credentials` (service `bedrock`), or the Bedrock API key as a bearer
 * token when given `{apiKey}`, else 403 as AWS refuses it; errors
 * are `{message}` with the `x-amzn-errortype` header. Pass `baseUrl` as
 * AWS_ENDPOINT_URL_BEDROCK_RUNTIME.
 */
export async function startFakeBedrock(
  script: FakeChatScript,
  credentials: FakeAwsCredentials | { apiKey: string },
): Promise<FakeChatProvider> {
  return startFake((path) => conversePath.test(path), script, {
    errorBody: (turn) => ({ message: turn.message }),
    errorHeaders: (turn) => awsErrorHeaders(errorType(turn.status)),
    answer(turn, _body, request) {
      const usage = { inputTokens: 25, outputTokens: 11, totalTokens: 36 };
      const toolUse = { toolUseId: 'tooluse_fake_1', name: '', input: {} as unknown };
      if (turn.kind === 'tool-call') Object.assign(toolUse, { name: turn.name, input: turn.input });
      const stopReason = turn.kind === 'text' ? 'end_turn' : 'tool_use';
      if (conversePath.exec(request.path)?.[2] === 'converse') {
        const content = turn.kind === 'text' ? [{ text: turn.text }] : [{ toolUse }];
        return {
          kind: 'json',
          body: {
            output: { message: { role: 'assistant', content } },
            stopReason,
            usage,
            metrics: { latencyMs: 120 },
          },
          headers: { 'x-amzn-requestid': 'fake-request-1' },
        };
      }
      return {
        kind: 'bytes',
        contentType: 'application/vnd.amazon.eventstream',
        body: stream(turn),
      };
    },
    streamError(turn, _body, request) {
      if (conversePath.exec(request.path)?.[2] !== 'converse-stream') return undefined;
      // The stream began (200), then the service reports an exception frame.
      const frames = [
        eventStreamMessage(
          {
            ':event-type': 'messageStart',
            ':content-type': 'application/json',
            ':message-type': 'event',
          },
          JSON.stringify({ role: 'assistant', p: 'abcd' }),
        ),
        eventStreamMessage(
          {
            ':exception-type': exceptionType(turn.status),
            ':content-type': 'application/json',
            ':message-type': 'exception',
          },
          JSON.stringify({ message: turn.message }),
        ),
      ];
      return {
        kind: 'bytes',
        contentType: 'application/vnd.amazon.eventstream',
        body: Buffer.concat(frames),
      };
    },
    check(request) {
      const problem =
        'apiKey' in credentials
          ? checkApiKey(request.headers.authorization, credentials.apiKey)
          : checkSignatureV4(request, { credentials, service: 'bedrock' });
      if (problem === undefined) return undefined;
      // Bedrock's REST API refuses a bad signature or key with 403 (CloudWatch's JSON API: 400).
      const headers = awsErrorHeaders(problem.type);
      return { kind: 'json', status: 403, body: { message: problem.message }, headers };
    },
  });
}

function stream(turn: FakeAnswerTurn): Uint8Array {
  const events: Array<[string, Record<string, unknown>]> = [
    ['messageStart', { role: 'assistant' }],
  ];
  if (turn.kind === 'text') {
    for (const word of words(turn.text))
      events.push(['contentBlockDelta', { contentBlockIndex: 0, delta: { text: word } }]);
  } else {
    events.push([
      'contentBlockStart',
      {
        contentBlockIndex: 0,
        start: { toolUse: { toolUseId: 'tooluse_fake_1', name: turn.name } },
      },
    ]);
    const json = JSON.stringify(turn.input);
    const middle = Math.ceil(json.length / 2);
    for (const part of [json.slice(0, middle), json.slice(middle)])
      events.push([
        'contentBlockDelta',
        { contentBlockIndex: 0, delta: { toolUse: { input: part } } },
      ]);
  }
  events.push(
    ['contentBlockStop', { contentBlockIndex: 0 }],
    ['messageStop', { stopReason: turn.kind === 'text' ? 'end_turn' : 'tool_use' }],
    [
      'metadata',
      { usage: { inputTokens: 25, outputTokens: 11, totalTokens: 36 }, metrics: { latencyMs: 90 } },
    ],
  );
  // Bedrock pads each event with a `p` field, so sizes do not tell what was said.
  return Buffer.concat(
    events.map(([type, payload]) =>
      eventStreamMessage(
        { ':event-type': type, ':content-type': 'application/json', ':message-type': 'event' },
        JSON.stringify({
          ...payload,
          p: 'abcdefghijklmnopqrstuvwxyzABCDEF'.slice(0, 7 + type.length),
        }),
      ),
    ),
  );
}

/**
 * One message of the AWS event-stream encoding: total and headers lengths, the prelude's
 * CRC-32, string headers (name length, name, type 7, value length, value), the payload, and
 * the whole message's CRC-32.
 */
export function eventStreamMessage(headers: Record<string, string>, payload: string): Buffer {
  const headerBytes = Buffer.concat(
    Object.entries(headers).map(([name, value]) => {
      const nameBytes = Buffer.from(name);
      const valueBytes = Buffer.from(value);
      const head = Buffer.alloc(1 + nameBytes.length + 3);
      head.writeUInt8(nameBytes.length, 0);
      nameBytes.copy(head, 1);
      head.writeUInt8(7, 1 + nameBytes.length);
      head.writeUInt16BE(valueBytes.length, 2 + nameBytes.length);
      return Buffer.concat([head, valueBytes]);
    }),
  );
  const body = Buffer.from(payload);
  const total = 12 + headerBytes.length + body.length + 4;
  const prelude = Buffer.alloc(12);
  prelude.writeUInt32BE(total, 0);
  prelude.writeUInt32BE(headerBytes.length, 4);
  prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
  const message = Buffer.concat([prelude, headerBytes, body, Buffer.alloc(4)]);
  message.writeUInt32BE(crc32(message.subarray(0, total - 4)), total - 4);
  return message;
}

/** A Bedrock API key comes as a bearer token instead of a signature. */
function checkApiKey(
  authorization: string | undefined,
  apiKey: string,
): { type: string; message: string } | undefined {
  if (authorization === `Bearer ${apiKey}`) return undefined;
  const message = 'Authentication failed: Please make sure your API Key is valid.';
  return { type: 'AccessDeniedException', message };
}

/** The exception frame's type: the error's name with a lower-case first letter. */
function exceptionType(status: number): string {
  const name = errorType(status);
  return `${name.charAt(0).toLowerCase()}${name.slice(1)}`;
}

function errorType(status: number): string {
  if (status === 403) return 'AccessDeniedException';
  if (status === 404) return 'ResourceNotFoundException';
  if (status === 424) return 'ModelStreamErrorException';
  if (status === 429) return 'ThrottlingException';
  if (status === 503) return 'ServiceUnavailableException';
  if (status >= 500) return 'InternalServerException';
  return 'ValidationException';
}

function awsErrorHeaders(type: string): Record<string, string> {
  return {
    'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
    'x-amzn-requestid': 'fake-request-1',
  };
}
