import { z } from 'zod';
import { ToolRequestError } from '../../errors/tool-request-error.ts';
import { endpointUrl, fetchJson } from '../fetch-json.ts';
import { parseAnswer } from '../parse-answer.ts';
import { statusError } from '../status-error.ts';
import { datadogSearchQuery } from './datadog-query.ts';
import { requestContext, timeRange } from './remote-context.ts';
import { shortenEvent } from './shorten-event.ts';
import type { LogEvent, LogQuery, LogQueryResult, LogSource } from './types.ts';

/** Datadog's site and keys. */
export interface DatadogSourceOptions {
  apiKey: string;
  applicationKey: string;
  /** `datadoghq.com` (default), `datadoghq.eu`, `us3.datadoghq.com`, … */
  site?: string;
  /** The API's base URL, overriding the site's (`https://api.<site>`); for proxies and tests. */
  apiUrl?: string;
  fetch?: typeof fetch;
  now?: () => Date;
}

const service = 'Datadog';
const aggregateSchema = z.object({
  meta: z.object({ status: z.string().optional() }).optional(),
  data: z.object({
    buckets: z.array(z.object({ computes: z.record(z.string(), z.unknown()) })),
  }),
});
const searchSchema = z.object({
  data: z.array(
    z.object({
      id: z.string().optional(),
      attributes: z.object({
        timestamp: z.string(),
        status: z.string().optional(),
        service: z.string().optional(),
        message: z.string().optional(),
        host: z.string().optional(),
        tags: z.array(z.string()).optional(),
        attributes: z.record(z.string(), z.unknown()).optional(),
      }),
    }),
  ),
});

/**
 * `datadog`: the Logs API v2. The count is one aggregate request (`compute: count`, exact);
 * the events one search request sorted `-timestamp` with `page.limit`. Without `since`, the
 * last 30 days are searched. Query syntax: {@link datadogSearchQuery}.
 */
export function createDatadogLogSource(options: DatadogSourceOptions): LogSource {
  const root = (options.apiUrl ?? `https://api.${options.site ?? 'datadoghq.com'}`).replace(
    /\/+$/,
    '',
  );
  const fetchFunction = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => new Date());
  const headers = { 'DD-API-KEY': options.apiKey, 'DD-APPLICATION-KEY': options.applicationKey };
  const request = {
    service,
    method: 'POST' as const,
    headers,
    secrets: [options.apiKey, options.applicationKey],
    maxBytes: 8 * 1024 * 1024,
    explainStatus,
  };
  return {
    name: 'Datadog',
    async query(query: LogQuery, { signal }): Promise<LogQueryResult> {
      const context = requestContext(signal, fetchFunction);
      const { startMs, endMs } = timeRange(query, now());
      const filter = {
        query: datadogSearchQuery(query),
        from: new Date(startMs).toISOString(),
        to: new Date(endMs).toISOString(),
      };
      const [aggregate, search] = await Promise.all([
        fetchJson(
          {
            ...request,
            url: endpointUrl(service, `${root}/api/v2/logs/analytics/aggregate`, {}),
            body: { compute: [{ aggregation: 'count', type: 'total' }], filter },
          },
          context,
        ),
        query.limit > 0
          ? fetchJson(
              {
                ...request,
                url: endpointUrl(service, `${root}/api/v2/logs/events/search`, {}),
                body: { filter, sort: '-timestamp', page: { limit: query.limit } },
              },
              context,
            )
          : undefined,
      ]);
      const counted = parseAnswer(service, aggregateSchema, aggregate);
      if (counted.meta?.status !== undefined && counted.meta.status !== 'done') {
        const hint = 'narrow the query with since/until and try again';
        throw new ToolRequestError({ service, problem: 'did not finish counting in time', hint });
      }
      const count = counted.data.buckets.reduce(
        (sum, bucket) => sum + Number(bucket.computes.c0 ?? 0),
        0,
      );
      const found = search === undefined ? [] : parseAnswer(service, searchSchema, search).data;
      const events = found.slice(0, query.limit).map(({ id, attributes }) => {
        const custom = { ...attributes.attributes };
        const http = custom.http as { status_code?: unknown } | undefined;
        const event: LogEvent = {
          ...custom,
          timestamp: new Date(attributes.timestamp).toISOString(),
          ...(attributes.status ? { level: attributes.status } : {}),
          ...(attributes.service ? { service: attributes.service } : {}),
          ...(typeof http?.status_code === 'number' ? { status: http.status_code } : {}),
          message: attributes.message ?? '',
          ...(attributes.host ? { host: attributes.host } : {}),
          ...(id ? { id } : {}),
        };
        return shortenEvent(event, 8_000);
      });
      return { count, events };
    },
  };
}

/** Datadog's error bodies are `{errors: ["…"]}`. */
function explainStatus(status: number, body: unknown): ToolRequestError | undefined {
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  const detail = Array.isArray(errors) ? errors.map(String).join('; ').slice(0, 200) : '';
  if (status === 403) {
    const hint =
      'the server administrator must fix DD_API_KEY and DD_APP_KEY (logs_read_data scope)';
    return new ToolRequestError({
      service,
      problem: 'refused the configured keys',
      status,
      detail,
      hint,
    });
  }
  return statusError(service, status, detail);
}
