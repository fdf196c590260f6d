import type {
  CloudWatchLogsClient,
  CloudWatchLogsClientConfig,
} from '@aws-sdk/client-cloudwatch-logs';
import { loadOnce } from '../../../core/index.ts';
import { ToolRequestError } from '../../errors/tool-request-error.ts';
import { cloudWatchFilterPattern } from './cloudwatch-filter-pattern.ts';
import { LogSourceError } from './errors/log-source-error.ts';
import { compileLogQuery } from './match-log-query.ts';
import { NewestEvents } from './newest-events.ts';
import { fromRecord, parseLogLine } from './parse-log-line.ts';
import { shortenEvent } from './shorten-event.ts';
import type { LogQuery, LogQueryResult, LogSource } from './types.ts';

/** Which log group to search, and how to reach CloudWatch Logs. */
export interface CloudWatchSourceOptions {
  /** A log group name, or its ARN. */
  logGroup: string;
  /**
   * AWS SDK client settings; by default region and credentials come from the environment
   * (`AWS_REGION`, `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`, `AWS_PROFILE`, roles, …) and the
   * SDK honours `AWS_ENDPOINT_URL_CLOUDWATCH_LOGS` (or `AWS_ENDPOINT_URL`) as the endpoint.
   */
  clientConfig?: CloudWatchLogsClientConfig;
  /** Pages (of up to 10 000 events) followed before giving up on an exact count (default 500). */
  maxPages?: number;
}

const service = 'CloudWatch Logs';

/** The SDK, loaded by the first query: a server that never searches CloudWatch never holds it. */
const loadCloudWatchSdk = loadOnce(() => import('@aws-sdk/client-cloudwatch-logs'));

/**
 * `cloudwatch:LOG_GROUP`: FilterLogEvents with a JSON filter pattern built from the query
 * ({@link cloudWatchFilterPattern}), every page followed through `nextToken` so the count is
 * exact; each event is checked again with the file rules and only the newest `limit` kept.
 * Without `since` the whole log group is searched.
 */
export function createCloudWatchLogSource(options: CloudWatchSourceOptions): LogSource {
  let client: CloudWatchLogsClient | undefined;
  const maxPages = options.maxPages ?? 500;
  const group = options.logGroup.startsWith('arn:')
    ? { logGroupIdentifier: options.logGroup }
    : { logGroupName: options.logGroup };
  return {
    name: `CloudWatch Logs group ${options.logGroup}`,
    async query(query: LogQuery, { signal }): Promise<LogQueryResult> {
      const { CloudWatchLogsClient, FilterLogEventsCommand } = await loadCloudWatchSdk();
      client ??= new CloudWatchLogsClient({ maxAttempts: 2, ...options.clientConfig });
      const filterPattern = cloudWatchFilterPattern(query);
      const matches = compileLogQuery(query);
      const newest = new NewestEvents(query.limit);
      let count = 0;
      let nextToken: string | undefined;
      for (let page = 1; ; page += 1) {
        const command = new FilterLogEventsCommand({
          ...group,
          ...(filterPattern ? { filterPattern } : {}),
          ...(query.since ? { startTime: query.since.getTime() } : {}),
          // CloudWatch's end is inclusive; the query's `until` is not.
          ...(query.until ? { endTime: query.until.getTime() - 1 } : {}),
          ...(nextToken ? { nextToken } : {}),
          limit: 10_000,
        });
        const output = await client.send(command, { abortSignal: signal }).catch((error) => {
          if (signal.aborted) throw signal.reason;
          throw describeAwsError(error, options.logGroup);
        });
        for (const record of output.events ?? []) {
          const timeMs = record.timestamp;
          const line = parseLogLine(record.message ?? '') ?? fromRecord({ message: '' });
          const parsed = { ...line, timeMs: timeMs ?? line.timeMs };
          if (timeMs !== undefined) parsed.event.timestamp = new Date(timeMs).toISOString();
          if (!matches(parsed)) continue;
          count += 1;
          if (record.logStreamName) parsed.event.logStream = record.logStreamName;
          newest.offer(parsed.event, parsed.timeMs, (event) => shortenEvent(event, 8_000));
        }
        nextToken = output.nextToken;
        if (!nextToken) break;
        if (page >= maxPages) {
          throw new LogSourceError({
            source: `${service} group ${options.logGroup}`,
            problem: `has more than ${page * 10_000} events to read for this query`,
            hint: 'narrow it with since/until or more filters',
          });
        }
      }
      return { count, events: newest.toArray() };
    },
  };
}

/** An AWS SDK failure in words the model can act on; never a key or a signature. */
function describeAwsError(error: unknown, logGroup: string): ToolRequestError {
  const failure = error as {
    name?: string;
    message?: string;
    code?: string;
    $metadata?: { httpStatusCode?: number };
  };
  const name = failure.name ?? '';
  const status = failure.$metadata?.httpStatusCode;
  const detail = (failure.message ?? '').slice(0, 200);
  const fields = { service, status, detail };
  if (name === 'ResourceNotFoundException') {
    const hint = 'check the group in YEOUL_LOGS (cloudwatch:LOG_GROUP) and the region';
    return new ToolRequestError({
      ...fields,
      problem: `has no log group ${JSON.stringify(logGroup)}`,
      hint,
    });
  }
  if (name === 'CredentialsProviderError' || (/credential/i.test(detail) && status === undefined)) {
    const hint =
      'the server needs AWS credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile or a role)';
    return new ToolRequestError({ service, problem: 'found no AWS credentials', detail, hint });
  }
  if (/region is missing/i.test(detail)) {
    return new ToolRequestError({
      service,
      problem: 'has no AWS region configured',
      hint: 'set AWS_REGION',
    });
  }
  if (
    /^(AccessDenied|UnrecognizedClient|InvalidSignature|ExpiredToken|MissingAuthenticationToken|IncompleteSignature)/.test(
      name,
    )
  ) {
    const hint =
      'the server administrator must fix the AWS credentials or their permissions (logs:FilterLogEvents)';
    return new ToolRequestError({ ...fields, problem: 'refused the AWS credentials', hint });
  }
  if (name === 'ThrottlingException' || name === 'LimitExceededException') {
    return new ToolRequestError({
      ...fields,
      problem: 'is throttling requests',
      hint: 'wait a little before trying again',
    });
  }
  if (name === 'InvalidParameterException') {
    return new ToolRequestError({
      ...fields,
      problem: 'rejected the request',
      hint: 'check the arguments',
    });
  }
  if (status === undefined) {
    const reason = failure.code ?? (name || 'network error');
    const hint = 'the service may be down or the endpoint wrong; try again later';
    return new ToolRequestError({ service, problem: `could not be reached (${reason})`, hint });
  }
  const hint = status >= 500 ? 'try again later' : undefined;
  return new ToolRequestError({
    ...fields,
    problem: `failed (${name || 'error'})`,
    ...(hint ? { hint } : {}),
  });
}
