import { type FakeHttpServer, type FakeReply, startFakeHttpServer } from './fake-http-server.ts';
import {
  applyStages,
  compare,
  LogQlParseError,
  type LogSelector,
  parseLogQl,
} from './fake-loki-logql.ts';

/** A stream the fake Loki holds: its labels and its entries (time in nanoseconds, line). */
export interface FakeLokiStream {
  labels: Record<string, string>;
  entries: Array<{ nanoseconds: bigint; line: string }>;
}

/** The fake Loki. */
export interface FakeLoki extends FakeHttpServer {
  /** Adds streams, as `/loki/api/v1/push` would. */
  push(streams: FakeLokiStream[]): void;
}

interface Matched {
  nanoseconds: bigint;
  line: string;
  labels: Record<string, string>;
}

/**
 * Starts a fake Loki speaking its HTTP API's wire format: `GET /loki/api/v1/query_range`
 * (log queries → `resultType: "streams"` with `[["<ns>", "<line>"], …]` values; count queries →
 * `"matrix"`) and `GET /loki/api/v1/query` (count queries → `"vector"`), times as nanosecond
 * epochs, log ranges `[start, end)` and metric ranges `(t − range, t]` as Loki has them. It
 * evaluates the LogQL subset Yeoul sends (see fake-loki-logql.ts) and answers anything else
 * with Loki's plain-text 400, so nothing passes by being ignored.
 */
export async function startFakeLoki(
  options: { streams?: FakeLokiStream[] } = {},
): Promise<FakeLoki> {
  const streams: FakeLokiStream[] = [...(options.streams ?? [])];
  const server = await startFakeHttpServer(({ method, path, query }) => {
    if (path !== '/loki/api/v1/query_range' && path !== '/loki/api/v1/query') {
      return { kind: 'text', status: 404, body: '404 page not found\n' };
    }
    if (method !== 'GET') return { kind: 'text', status: 405, body: 'method not allowed\n' };
    try {
      const parsed = parseLogQl(query.get('query') ?? '');
      if (path === '/loki/api/v1/query') {
        if (parsed.kind !== 'count')
          return badRequest('log queries are not supported as instant queries');
        const time = readTime(query.get('time'), BigInt(Date.now()) * 1_000_000n);
        return success(
          'vector',
          countAt(streams, parsed.selector, parsed.rangeNs, time).map(({ count, time: at }) => ({
            metric: {},
            value: [seconds(at), String(count)],
          })),
        );
      }
      const end = readTime(query.get('end'), BigInt(Date.now()) * 1_000_000n);
      const start = readTime(query.get('start'), end - 3_600_000_000_000n);
      if (end < start) return badRequest('end timestamp must not be before or equal to start time');
      if (parsed.kind === 'count') {
        const step = BigInt(Math.round(Number(query.get('step') ?? '60') * 1e9));
        const values: Array<[number, string]> = [];
        for (let at = start; at <= end; at += step) {
          for (const point of countAt(streams, parsed.selector, parsed.rangeNs, at))
            values.push([seconds(at), String(point.count)]);
        }
        return success('matrix', values.length === 0 ? [] : [{ metric: {}, values }]);
      }
      const limit = Number(query.get('limit') ?? '100');
      const direction = query.get('direction') ?? 'backward';
      if (!Number.isInteger(limit) || limit <= 0 || limit > 5000)
        return badRequest(`invalid limit: ${query.get('limit')}`);
      if (direction !== 'backward' && direction !== 'forward')
        return badRequest(`invalid direction: ${direction}`);
      const matched = select(streams, parsed.selector, start, end);
      matched.sort((left, right) =>
        left.nanoseconds === right.nanoseconds ? 0 : left.nanoseconds > right.nanoseconds ? -1 : 1,
      );
      if (direction === 'forward') matched.reverse();
      return success('streams', groupByLabels(matched.slice(0, limit)));
    } catch (error) {
      if (error instanceof LogQlParseError) return badRequest(error.message);
      throw error;
    }
  });
  return { ...server, push: (added) => streams.push(...added) };
}

/** Entries of the selected streams with `start <= time < end` that pass the pipeline. */
function select(
  streams: FakeLokiStream[],
  selector: LogSelector,
  start: bigint,
  end: bigint,
): Matched[] {
  const found: Matched[] = [];
  for (const stream of streams) {
    if (!selector.matchers.every((matcher) => compare(matcher, stream.labels[matcher.label] ?? '')))
      continue;
    for (const entry of stream.entries) {
      if (entry.nanoseconds < start || entry.nanoseconds >= end) continue;
      const labels = applyStages(selector.stages, entry.line, stream.labels);
      if (labels !== undefined) found.push({ ...entry, labels });
    }
  }
  return found;
}

/** `sum(count_over_time(…[range]))` at `time`: entries in `(time − range, time]`; no sample when none. */
function countAt(streams: FakeLokiStream[], selector: LogSelector, rangeNs: bigint, time: bigint) {
  const matched = select(streams, selector, time - rangeNs + 1n, time + 1n);
  const failed = matched.find((entry) => entry.labels.__error__ !== undefined);
  if (failed) {
    throw new LogQlParseError(
      `pipeline error: '${failed.labels.__error__}' for series: '${JSON.stringify(failed.labels)}'. Use a label filter to intentionally skip this error. (e.g | __error__!="${failed.labels.__error__}")`,
    );
  }
  return matched.length === 0 ? [] : [{ count: matched.length, time }];
}

function groupByLabels(entries: Matched[]) {
  const groups = new Map<
    string,
    { stream: Record<string, string>; values: Array<[string, string]> }
  >();
  for (const entry of entries) {
    const key = JSON.stringify(Object.entries(entry.labels).sort());
    let group = groups.get(key);
    if (group === undefined) {
      group = { stream: entry.labels, values: [] };
      groups.set(key, group);
    }
    group.values.push([String(entry.nanoseconds), entry.line]);
  }
  return [...groups.values()];
}

/** Nanosecond epochs, as Yeoul sends them (Loki also takes RFC 3339, which the fake accepts too). */
function readTime(text: string | null, fallback: bigint): bigint {
  if (text === null || text === '') return fallback;
  if (/^\d+$/.test(text)) return BigInt(text);
  const parsed = Date.parse(text);
  if (Number.isNaN(parsed)) throw new LogQlParseError(`invalid time: ${JSON.stringify(text)}`);
  return BigInt(parsed) * 1_000_000n;
}

const seconds = (nanoseconds: bigint) => Number(nanoseconds) / 1e9;
const badRequest = (message: string): FakeReply => ({
  kind: 'text',
  status: 400,
  body: `${message}\n`,
});
const success = (resultType: string, result: unknown): FakeReply => ({
  kind: 'json',
  body: {
    status: 'success',
    data: { resultType, result, stats: { summary: { execTime: 0.001 } } },
  },
});
