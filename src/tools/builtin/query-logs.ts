import { z } from 'zod';
import { defineTool } from '../define-tool.ts';
import { fitToSize } from './fit-to-size.ts';
import { InvalidTimeRangeError } from './logs/errors/invalid-time-range-error.ts';
import { readTime, timeInputSchema } from './logs/parse-time.ts';
import { shortenEvent } from './logs/shorten-event.ts';
import type { LogEvent, StatusRange } from './logs/types.ts';

const maxResultChars = 8_000;
const maxEventChars = 700;

const statusSchema = z.union([
  z.number().int().min(100).max(599),
  z
    .string()
    .trim()
    .regex(/^(?:[1-5]\d\d|[1-5]xx)$/i, 'use an HTTP status such as 500, or a class such as 5xx'),
]);

/**
 * `query_logs` (a tool of the ops workflow): searches the configured logs (`YEOUL_LOGS`: a
 * folder, Loki, CloudWatch Logs or Datadog) and returns `{count, events}` — the exact number of
 * all matching events first, then the newest `limit` of them, each cut to a bounded size.
 * Offered only when a log source is wired into the environment.
 * @example
 * await executor.execute({ id: 'c1', name: 'query_logs', args: { service: 'payment-service', status: 500 } });
 * // '{"count":17,"events":[{"timestamp":"2025-03-14T05:07:38.837Z","level":"error",…}],…}'
 */
export const queryLogsTool = defineTool({
  name: 'query_logs',
  description:
    'Searches the application logs by service, level, HTTP status, text and time. Returns ' +
    '{count, events}: count is the exact number of ALL matching events, computed by the tool — ' +
    'state it as is and never count the events yourself; events are the newest matches (newest ' +
    'first, at most limit). Without since/until no time filter applies (Loki and Datadog: the ' +
    'last 30 days).',
  inputSchema: z.object({
    service: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe('Service name, e.g. payment-service'),
    level: z
      .string()
      .trim()
      .min(1)
      .max(20)
      .optional()
      .describe('Log level: error, warn, info, debug'),
    status: statusSchema.optional().describe('HTTP status, e.g. 500, or a class such as 5xx'),
    contains: z
      .string()
      .min(1)
      .max(500)
      .optional()
      .describe('Text the message contains (case-insensitive)'),
    since: timeInputSchema
      .optional()
      .describe('From this time: ISO 8601, or a duration ago such as 15m, 1h, 2d'),
    until: timeInputSchema.optional().describe('Before this time: ISO 8601, or a duration ago'),
    limit: z
      .number()
      .int()
      .min(0)
      .max(100)
      .default(20)
      .describe('Most events to list, 0–100 (default 20)'),
  }),
  maxResultChars,
  timeoutMs: 30_000,
  isAvailable: (env) => env.logs !== undefined,
  execute: async (input, context) => {
    const source = context.env.logs;
    if (source === undefined) throw new Error('no log source is configured (YEOUL_LOGS)');
    const now = context.env.now();
    const since = input.since === undefined ? undefined : readTime(input.since, now);
    const until = input.until === undefined ? undefined : readTime(input.until, now);
    if (since && until && since.getTime() >= until.getTime()) {
      throw new InvalidTimeRangeError({
        fromName: 'since',
        from: since,
        toName: 'until',
        to: until,
      });
    }
    const result = await source.query(
      {
        ...(input.service ? { service: input.service } : {}),
        ...(input.level ? { level: input.level } : {}),
        ...(input.status !== undefined ? { status: statusRange(input.status) } : {}),
        ...(input.contains ? { contains: input.contains } : {}),
        ...(since ? { since } : {}),
        ...(until ? { until } : {}),
        limit: input.limit,
      },
      { signal: context.signal },
    );
    const events = result.events
      .slice(0, input.limit)
      .map((event) => shortenEvent(event, maxEventChars));
    const render = (kept: LogEvent[], omitted: number) => ({
      count: result.count,
      events: kept,
      ...(result.count > kept.length ? { note: note(result.count, kept.length, omitted) } : {}),
    });
    return events.length === 0 ? render([], 0) : fitToSize(events, render, maxResultChars - 100);
  },
});

function note(count: number, shown: number, omitted: number): string {
  const cut = omitted > 0 ? ' (the rest left out to fit the size limit)' : '';
  return `count is exact: ${count} events match; events lists the newest ${shown}${cut}`;
}

/** `500` → 500–500, `"5xx"` → 500–599. */
function statusRange(status: number | string): StatusRange {
  const text = String(status).trim().toLowerCase();
  if (text.endsWith('xx')) {
    const from = Number(text[0]) * 100;
    return { from, to: from + 99 };
  }
  return { from: Number(text), to: Number(text) };
}
