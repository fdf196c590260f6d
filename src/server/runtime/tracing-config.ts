import type { TracingVariables } from '../../config/index.ts';

/** Where and how traces are exported (OpenTelemetry's standard variables, plus `YEOUL_TRACE_CONTENT`). */
export interface TracingConfig {
  /** The OTLP/HTTP traces URL (`…/v1/traces`). */
  url: string;
  /** Headers sent with every export (`OTEL_EXPORTER_OTLP_HEADERS`), e.g. an API key. */
  headers: Record<string, string>;
  /** `service.name` of the spans (`OTEL_SERVICE_NAME`, default `yeoul`). */
  serviceName: string;
  /** Whether spans carry message text (`YEOUL_TRACE_CONTENT=1`); off by default. */
  recordContent: boolean;
  /** How long spans wait to be sent in a batch (`OTEL_BSP_SCHEDULE_DELAY`, default 5000 ms). */
  scheduledDelayMs: number;
}

/** The tracing configuration, undefined when tracing is off, or every problem found. */
export type TracingConfigResult =
  | { ok: true; config: TracingConfig | undefined }
  | { ok: false; problems: string[] };

/**
 * Reads the tracing settings from the tracing variables (`tracingVariables`: trimmed, an empty
 * value unset, the delay and the content switch parsed): tracing is on when
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (used as is) or `OTEL_EXPORTER_OTLP_ENDPOINT` (the
 * collector's base URL; `/v1/traces` is appended, as the OTLP specification says) is set.
 * @example
 * readTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })
 * // { ok: true, config: { url: 'http://127.0.0.1:4318/v1/traces', … } }
 */
export function readTracingConfig(env: TracingVariables): TracingConfigResult {
  const signalUrl = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (signalUrl === undefined && base === undefined) return { ok: true, config: undefined };
  const problems: string[] = [];
  const url = signalUrl ?? `${(base as string).replace(/\/+$/, '')}/v1/traces`;
  const name = signalUrl ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  if (!/^https?:\/\/[^/\s]+/i.test(url) || !URL.canParse(url)) {
    problems.push(`${name} must be an http:// or https:// URL, not "${signalUrl ?? base}"`);
  }
  const headers: Record<string, string> = {};
  for (const pair of (env.OTEL_EXPORTER_OTLP_HEADERS ?? '').split(',')) {
    if (pair.trim() === '') continue;
    const split = pair.indexOf('=');
    if (split <= 0) {
      problems.push('OTEL_EXPORTER_OTLP_HEADERS must be name=value pairs separated by commas');
      break;
    }
    headers[decode(pair.slice(0, split).trim())] = decode(pair.slice(split + 1).trim());
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    config: {
      url,
      headers,
      serviceName: env.OTEL_SERVICE_NAME ?? 'yeoul',
      recordContent: env.YEOUL_TRACE_CONTENT ?? false,
      scheduledDelayMs: env.OTEL_BSP_SCHEDULE_DELAY ?? 5000,
    },
  };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
