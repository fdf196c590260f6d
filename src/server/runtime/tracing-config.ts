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
 * Reads the tracing settings: tracing is on when `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`
 * (used as is) or `OTEL_EXPORTER_OTLP_ENDPOINT` (the collector's base URL; `/v1/traces` is
 * appended, as the OTLP specification says) is set; an empty value counts as unset.
 * @example
 * readTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })
 * // { ok: true, config: { url: 'http://127.0.0.1:4318/v1/traces', … } }
 */
export function readTracingConfig(env: Record<string, string | undefined>): TracingConfigResult {
  const value = (name: string) => {
    const text = env[name]?.trim();
    return text ? text : undefined;
  };
  const signalUrl = value('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const base = value('OTEL_EXPORTER_OTLP_ENDPOINT');
  if (signalUrl === undefined && base === undefined) return { ok: true, config: undefined };
  const problems: string[] = [];
  const url = signalUrl ?? `${(base as string).replace(/\/+$/, '')}/v1/traces`;
  const name = signalUrl ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  if (!/^https?:\/\/[^/\s]+/i.test(url) || !URL.canParse(url)) {
    problems.push(`${name} must be an http:// or https:// URL, not "${signalUrl ?? base}"`);
  }
  const headers: Record<string, string> = {};
  for (const pair of (value('OTEL_EXPORTER_OTLP_HEADERS') ?? '').split(',')) {
    if (pair.trim() === '') continue;
    const split = pair.indexOf('=');
    if (split <= 0) {
      problems.push('OTEL_EXPORTER_OTLP_HEADERS must be name=value pairs separated by commas');
      break;
    }
    headers[decode(pair.slice(0, split).trim())] = decode(pair.slice(split + 1).trim());
  }
  const delay = value('OTEL_BSP_SCHEDULE_DELAY');
  const scheduledDelayMs = delay === undefined ? 5000 : Number(delay);
  if (!(Number.isInteger(scheduledDelayMs) && scheduledDelayMs >= 0)) {
    problems.push(`OTEL_BSP_SCHEDULE_DELAY must be a whole number of milliseconds, not "${delay}"`);
  }
  const content = value('YEOUL_TRACE_CONTENT');
  if (content !== undefined && !['0', '1', 'true', 'false'].includes(content)) {
    problems.push(`YEOUL_TRACE_CONTENT must be 1 or 0, not "${content}"`);
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    config: {
      url,
      headers,
      serviceName: value('OTEL_SERVICE_NAME') ?? 'yeoul',
      recordContent: content === '1' || content === 'true',
      scheduledDelayMs,
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
