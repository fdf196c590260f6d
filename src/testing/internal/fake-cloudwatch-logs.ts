import { randomUUID } from 'node:crypto';
import { checkSignatureV4, type FakeAwsCredentials } from './fake-aws-signature.ts';
import { compileFilterPattern, FilterPatternError } from './fake-cloudwatch-filter.ts';
import { type FakeHttpServer, type FakeReply, startFakeHttpServer } from './fake-http-server.ts';

/** An event of a log group, as CloudWatch Logs stores it. */
export interface FakeCloudWatchEvent {
  logStreamName: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
  message: string;
}

/** The fake CloudWatch Logs. */
export interface FakeCloudWatchLogs extends FakeHttpServer {
  /** The credentials it accepts, for the SDK client under test. */
  credentials: FakeAwsCredentials;
  region: string;
}

const target = 'Logs_20140328.FilterLogEvents';
const contentType = 'application/x-amz-json-1.1';

/**
 * Starts a fake CloudWatch Logs speaking the AWS JSON 1.1 protocol: `POST /` with
 * `X-Amz-Target: Logs_20140328.FilterLogEvents` and `content-type: application/x-amz-json-1.1`,
 * a SigV4-signed request (checked, signature included, against `credentials`), a filter pattern
 * in the subset of fake-cloudwatch-filter.ts, `startTime`/`endTime` both inclusive, events in
 * time order in pages of `limit` (at most `pageSize`) joined by `nextToken`, and AWS's error
 * bodies `{__type, message}`.
 */
export async function startFakeCloudWatchLogs(options: {
  groups: Record<string, FakeCloudWatchEvent[]>;
  credentials?: FakeAwsCredentials;
  region?: string;
  /** Most events per page, whatever the request's limit (default 10 000, CloudWatch's). */
  pageSize?: number;
}): Promise<FakeCloudWatchLogs> {
  const credentials = options.credentials ?? {
    accessKeyId: 'AKIAFAKEYEOUL0000001',
    secretAccessKey: 'fake-secret-key-for-tests',
  };
  const pageSize = options.pageSize ?? 10_000;
  const groups = new Map(
    Object.entries(options.groups).map(([name, events]) => [
      name,
      [...events].sort((a, b) => a.timestamp - b.timestamp),
    ]),
  );
  const server = await startFakeHttpServer((request) => {
    if (request.method !== 'POST' || request.path !== '/')
      return awsError(404, 'UnknownOperationException', 'Not Found');
    if (!request.headers['content-type']?.startsWith(contentType)) {
      return awsError(400, 'SerializationException', `Expected content-type ${contentType}`);
    }
    const problem = checkSignatureV4(request, { credentials, service: 'logs' });
    if (problem) return awsError(problem.status, problem.type, problem.message);
    if (request.headers['x-amz-target'] !== target) {
      return awsError(400, 'UnknownOperationException', `The fake implements only ${target}`);
    }
    let input: Record<string, unknown>;
    try {
      input = JSON.parse(request.body) as Record<string, unknown>;
    } catch {
      return awsError(400, 'SerializationException', 'Request body is not valid JSON');
    }
    return filterLogEvents(input, groups, pageSize);
  });
  return { ...server, credentials, region: options.region ?? 'ap-northeast-2' };
}

function filterLogEvents(
  input: Record<string, unknown>,
  groups: Map<string, FakeCloudWatchEvent[]>,
  pageSize: number,
): FakeReply {
  const name = input.logGroupName ?? input.logGroupIdentifier;
  if (typeof name !== 'string')
    return awsError(
      400,
      'InvalidParameterException',
      'Either logGroupName or logGroupIdentifier must be given',
    );
  const events = groups.get(
    name.replace(/^arn:aws:logs:[^:]*:\d*:log-group:/, '').replace(/:\*$/, ''),
  );
  if (events === undefined)
    return awsError(400, 'ResourceNotFoundException', 'The specified log group does not exist.');
  const limit = input.limit ?? 10_000;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 10_000) {
    return awsError(
      400,
      'InvalidParameterException',
      "1 validation error detected: Value at 'limit' failed to satisfy constraint",
    );
  }
  let matches: (message: string) => boolean;
  try {
    matches = compileFilterPattern(
      typeof input.filterPattern === 'string' ? input.filterPattern : '',
    );
  } catch (error) {
    if (error instanceof FilterPatternError)
      return awsError(400, 'InvalidParameterException', error.message);
    throw error;
  }
  const startTime =
    typeof input.startTime === 'number' ? input.startTime : Number.NEGATIVE_INFINITY;
  const endTime = typeof input.endTime === 'number' ? input.endTime : Number.POSITIVE_INFINITY;
  const offset = readToken(input.nextToken);
  if (offset === undefined)
    return awsError(400, 'InvalidParameterException', 'The specified nextToken is invalid.');
  const found = events.filter(
    (event) => event.timestamp >= startTime && event.timestamp <= endTime && matches(event.message),
  );
  const page = found.slice(offset, offset + Math.min(limit, pageSize));
  const next = offset + page.length;
  return {
    kind: 'json',
    headers: { 'content-type': contentType, 'x-amzn-requestid': randomUUID() },
    body: {
      events: page.map((event, index) => ({
        ...event,
        ingestionTime: event.timestamp + 250,
        eventId: `${event.timestamp}${String(offset + index).padStart(20, '0')}`,
      })),
      searchedLogStreams: [],
      ...(next < found.length
        ? { nextToken: Buffer.from(JSON.stringify({ offset: next })).toString('base64') }
        : {}),
    },
  };
}

function readToken(token: unknown): number | undefined {
  if (token === undefined) return 0;
  try {
    const { offset } = JSON.parse(Buffer.from(String(token), 'base64').toString('utf8')) as {
      offset?: unknown;
    };
    return typeof offset === 'number' ? offset : undefined;
  } catch {
    return undefined;
  }
}

function awsError(status: number, type: string, message: string): FakeReply {
  return {
    kind: 'json',
    status,
    headers: { 'content-type': contentType, 'x-amzn-requestid': randomUUID() },
    body: { __type: type, message },
  };
}
