import type { IncomingHttpHeaders } from 'node:http';
import { type FakeHttpServer, startFakeHttpServer } from './fake-http-server.ts';

/** One span as an OTLP/HTTP JSON export carried it, with its attributes decoded. */
export interface CollectedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind number: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  events: Array<{ name: string; attributes: Record<string, unknown> }>;
  /** The attributes of the resource that sent it (`service.name`, …). */
  resource: Record<string, unknown>;
}

/** A local OTLP/HTTP trace receiver (`POST /v1/traces`, JSON encoding). */
export interface FakeOtlpCollector {
  /** The collector's base URL, for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  url: string;
  /** Every span received, in arrival order. */
  spans: CollectedSpan[];
  /** The headers of each export request. */
  exports: IncomingHttpHeaders[];
  close(): Promise<void>;
}

type OtlpValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
};
type OtlpAttribute = { key: string; value: OtlpValue };

/**
 * Starts a receiver that speaks OTLP/HTTP with JSON bodies, as OpenTelemetry's
 * `@opentelemetry/exporter-trace-otlp-http` sends them: `ExportTraceServiceRequest`
 * (resourceSpans → scopeSpans → spans) in, an empty `ExportTraceServiceResponse` out.
 * Protobuf bodies are refused with 415, as a JSON-only receiver would.
 * @example
 * const collector = await startFakeOtlpCollector();
 * // OTEL_EXPORTER_OTLP_ENDPOINT = collector.url; … collector.spans
 */
export async function startFakeOtlpCollector(): Promise<FakeOtlpCollector> {
  const spans: CollectedSpan[] = [];
  const exports: IncomingHttpHeaders[] = [];
  const server: FakeHttpServer = await startFakeHttpServer((request) => {
    if (request.method !== 'POST' || request.path !== '/v1/traces') {
      return { kind: 'json', status: 404, body: { code: 5, message: 'not found' } };
    }
    if (!String(request.headers['content-type'] ?? '').startsWith('application/json')) {
      return { kind: 'json', status: 415, body: { code: 3, message: 'JSON only' } };
    }
    exports.push(request.headers);
    const body = JSON.parse(request.body) as {
      resourceSpans?: Array<{
        resource?: { attributes?: OtlpAttribute[] };
        scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }>;
      }>;
    };
    for (const resourceSpan of body.resourceSpans ?? []) {
      const resource = attributesOf(resourceSpan.resource?.attributes);
      for (const scope of resourceSpan.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) spans.push(decodeSpan(span, resource));
      }
    }
    return { kind: 'json', body: {} };
  });
  return { url: server.url, spans, exports, close: () => server.close() };
}

function decodeSpan(
  span: Record<string, unknown>,
  resource: Record<string, unknown>,
): CollectedSpan {
  const events = (span.events ?? []) as Array<{ name: string; attributes?: OtlpAttribute[] }>;
  return {
    traceId: String(span.traceId ?? ''),
    spanId: String(span.spanId ?? ''),
    parentSpanId: String(span.parentSpanId ?? ''),
    name: String(span.name ?? ''),
    kind: Number(span.kind ?? 0),
    attributes: attributesOf(span.attributes as OtlpAttribute[] | undefined),
    status: (span.status ?? { code: 0 }) as CollectedSpan['status'],
    events: events.map((event) => ({
      name: event.name,
      attributes: attributesOf(event.attributes),
    })),
    resource,
  };
}

function attributesOf(attributes: OtlpAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries((attributes ?? []).map(({ key, value }) => [key, decodeValue(value)]));
}

function decodeValue(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(decodeValue);
  return undefined;
}
