import { randomUUID } from 'node:crypto';
import {
  compileDatadogQuery,
  DatadogQueryError,
  type FakeDatadogLog,
} from './fake-datadog-query.ts';
import { type FakeHttpServer, type FakeReply, startFakeHttpServer } from './fake-http-server.ts';

/** The fake Datadog Logs API. */
export interface FakeDatadog extends FakeHttpServer {
  apiKey: string;
  applicationKey: string;
}

interface Filter {
  query?: unknown;
  from?: unknown;
  to?: unknown;
}

/**
 * Starts a fake Datadog Logs API v2 speaking its wire format: `POST /api/v2/logs/events/search`
 * (`{filter: {query, from, to}, sort, page: {limit, cursor}}` → `{data: [{id, type: "log",
 * attributes}], meta: {page: {after}}, links: {next}}`) and `POST /api/v2/logs/analytics/aggregate`
 * (`compute: [{aggregation: "count"}]` → `{data: {buckets: [{by: {}, computes: {c0}}]}}`), both
 * keys checked (`DD-API-KEY`, `DD-APPLICATION-KEY`), times `[from, to)` as ISO, epoch
 * milliseconds or `now-15m`, and Datadog's error bodies `{errors: ["…"]}`.
 */
export async function startFakeDatadog(options: {
  logs: FakeDatadogLog[];
  apiKey?: string;
  applicationKey?: string;
}): Promise<FakeDatadog> {
  const apiKey = options.apiKey ?? 'dd-api-key-0123456789abcdef';
  const applicationKey = options.applicationKey ?? 'dd-app-key-0123456789abcdef0123';
  const logs = [...options.logs].sort(
    (left, right) => Date.parse(right.timestamp) - Date.parse(left.timestamp),
  );
  const server = await startFakeHttpServer(({ method, path, headers, body }) => {
    const known =
      path === '/api/v2/logs/events/search' || path === '/api/v2/logs/analytics/aggregate';
    if (!known) return errors(404, 'Not found');
    if (method !== 'POST') return errors(405, 'Method Not Allowed');
    if (headers['dd-api-key'] !== apiKey || headers['dd-application-key'] !== applicationKey)
      return errors(403, 'Forbidden');
    let request: {
      filter?: Filter;
      compute?: unknown;
      sort?: unknown;
      page?: { limit?: unknown; cursor?: unknown };
    };
    try {
      request = JSON.parse(body) as typeof request;
    } catch {
      return errors(400, 'Invalid JSON body');
    }
    try {
      const found = select(logs, request.filter ?? {});
      if (path.endsWith('/aggregate')) return aggregate(found, request.compute);
      return search(found, request);
    } catch (error) {
      if (error instanceof DatadogQueryError) return errors(400, error.message);
      throw error;
    }
  });
  return { ...server, apiKey, applicationKey };
}

function select(logs: FakeDatadogLog[], filter: Filter): FakeDatadogLog[] {
  const now = Date.now();
  const from = readTime(filter.from ?? 'now-15m', now);
  const to = readTime(filter.to ?? 'now', now);
  const matches = compileDatadogQuery(typeof filter.query === 'string' ? filter.query : '*');
  return logs.filter((log) => {
    const time = Date.parse(log.timestamp);
    return time >= from && time < to && matches(log);
  });
}

function aggregate(found: FakeDatadogLog[], compute: unknown): FakeReply {
  const computes = Array.isArray(compute) ? compute : [{ aggregation: 'count' }];
  if (computes.length !== 1 || (computes[0] as { aggregation?: unknown }).aggregation !== 'count') {
    throw new DatadogQueryError('The fake implements only one compute, aggregation "count"');
  }
  const buckets = found.length === 0 ? [] : [{ by: {}, computes: { c0: found.length } }];
  return {
    kind: 'json',
    body: { meta: { status: 'done', request_id: randomUUID(), elapsed: 12 }, data: { buckets } },
  };
}

function search(
  found: FakeDatadogLog[],
  request: { sort?: unknown; page?: { limit?: unknown; cursor?: unknown } },
): FakeReply {
  const sort = request.sort ?? '-timestamp';
  if (sort !== '-timestamp' && sort !== 'timestamp')
    throw new DatadogQueryError(`Invalid sort: ${String(sort)}`);
  const ordered = sort === 'timestamp' ? [...found].reverse() : found;
  const limit = request.page?.limit ?? 10;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 5000)
    throw new DatadogQueryError('page[limit] must be between 1 and 5000');
  const offset =
    request.page?.cursor === undefined
      ? 0
      : Number(Buffer.from(String(request.page.cursor), 'base64url').toString());
  const page = ordered.slice(offset, offset + limit);
  const after =
    offset + page.length < ordered.length
      ? Buffer.from(String(offset + page.length)).toString('base64url')
      : undefined;
  return {
    kind: 'json',
    body: {
      data: page.map(({ id, ...attributes }) => ({ id, type: 'log', attributes })),
      meta: {
        status: 'done',
        request_id: randomUUID(),
        elapsed: 9,
        ...(after ? { page: { after } } : {}),
      },
      ...(after
        ? { links: { next: `https://api.datadoghq.com/api/v2/logs/events?page[cursor]=${after}` } }
        : {}),
    },
  };
}

/** ISO 8601, epoch milliseconds, `now` or `now-<n><s|m|h|d>`. */
function readTime(value: unknown, now: number): number {
  if (typeof value === 'number') return value;
  const text = String(value);
  const relative = /^now(?:-(\d+)([smhd]))?$/.exec(text);
  if (relative) {
    const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[relative[2] as 's'] ?? 0;
    return now - Number(relative[1] ?? 0) * unit;
  }
  const time = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (Number.isNaN(time)) throw new DatadogQueryError(`Invalid time: ${text}`);
  return time;
}

function errors(status: number, message: string): FakeReply {
  return { kind: 'json', status, body: { errors: [message] } };
}
