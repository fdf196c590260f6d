import { z } from 'zod';
import { endpointUrl, fetchJson } from '../fetch-json.ts';
import { parseAnswer } from '../parse-answer.ts';
import { lokiCountQuery, lokiLogQuery } from './logql.ts';
import { NewestEvents } from './newest-events.ts';
import { fromRecord, parseLogLine } from './parse-log-line.ts';
import { baseUrlWithAuth, requestContext, timeRange } from './remote-context.ts';
import { shortenEvent } from './shorten-event.ts';
import type { LogQuery, LogQueryResult, LogSource } from './types.ts';

/** Where and how to reach Loki. */
export interface LokiSourceOptions {
  /** Loki's base URL (`http://loki:3100`); `user:password@` in it is sent as basic auth. */
  url: string;
  /** The stream label that names the service (default `service`). */
  serviceLabel?: string;
  fetch?: typeof fetch;
  now?: () => Date;
}

const streamsSchema = z.object({
  status: z.literal('success'),
  data: z.object({
    resultType: z.literal('streams'),
    result: z.array(
      z.object({
        stream: z.record(z.string(), z.string()),
        values: z.array(z.tuple([z.string(), z.string()]).rest(z.unknown())),
      }),
    ),
  }),
});
const vectorSchema = z.object({
  status: z.literal('success'),
  data: z.object({
    resultType: z.literal('vector'),
    result: z.array(z.object({ value: z.tuple([z.number(), z.string()]) })),
  }),
});

/**
 * `loki:URL`: LogQL over Loki's HTTP API (rules: {@link lokiLogQuery}). The count is one
 * metric query, `sum(count_over_time(…))` over the whole range (exact, however many events
 * match); the events are one `query_range` read backward with `limit`, newest first.
 * Without `since`, the last 30 days are searched.
 */
export function createLokiLogSource(options: LokiSourceOptions): LogSource {
  const { root, headers, secrets } = baseUrlWithAuth(options.url);
  const serviceLabel = options.serviceLabel ?? 'service';
  const fetchFunction = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => new Date());

  return {
    name: 'Loki',
    async query(query: LogQuery, { signal }): Promise<LogQueryResult> {
      const context = requestContext(signal, fetchFunction);
      const { startMs, endMs } = timeRange(query, now());
      const logQuery = lokiLogQuery(query, serviceLabel);
      const countUrl = endpointUrl('Loki', `${root}/loki/api/v1/query`, {
        query: lokiCountQuery(logQuery, endMs - startMs),
        time: `${BigInt(endMs) * 1_000_000n - 1n}`,
      });
      const eventsUrl = endpointUrl('Loki', `${root}/loki/api/v1/query_range`, {
        query: logQuery,
        start: `${BigInt(startMs) * 1_000_000n}`,
        end: `${BigInt(endMs) * 1_000_000n}`,
        limit: String(Math.max(1, query.limit)),
        direction: 'backward',
      });
      const request = { service: 'Loki', headers, secrets, maxBytes: 8 * 1024 * 1024 };
      const [countAnswer, eventsAnswer] = await Promise.all([
        fetchJson({ ...request, url: countUrl }, context),
        query.limit > 0 ? fetchJson({ ...request, url: eventsUrl }, context) : undefined,
      ]);
      const vector = parseAnswer('Loki', vectorSchema, countAnswer);
      const count = vector.data.result.reduce((sum, sample) => sum + Number(sample.value[1]), 0);
      const newest = new NewestEvents(query.limit);
      if (eventsAnswer !== undefined) {
        for (const stream of parseAnswer('Loki', streamsSchema, eventsAnswer).data.result) {
          for (const [nanoseconds, line] of stream.values) {
            const timeMs = Number(BigInt(nanoseconds) / 1_000_000n);
            const parsed = parseLogLine(line) ?? fromRecord({ message: line });
            const event = { ...parsed.event, timestamp: new Date(timeMs).toISOString() };
            event.service ??= stream.stream[serviceLabel];
            newest.offer(event, timeMs, (kept) => shortenEvent(kept, 8_000));
          }
        }
      }
      return { count, events: newest.toArray() };
    },
  };
}
