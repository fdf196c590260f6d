import {
  type Context,
  context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** W3C Trace Context: version, trace id, parent span id, flags. */
const traceparentPattern = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * Traces the agent surfaces (`/api`, `/v1`, `/mcp`): each request is a server span — the
 * parent of the runs it starts, continuing the client's trace when it sent a valid
 * `traceparent` — and its response carries `traceparent` naming that span (streams too,
 * set before their headers go out). Route handlers run inside the span's context, so the
 * graph, model and tool spans nest under it, and log lines written there carry the trace
 * id (so does the request's "request completed" line). Registered only when tracing is on.
 */
export function traceRequests(app: FastifyInstance, traced: RegExp): void {
  const active = new WeakMap<FastifyRequest, { span: Span; context: Context }>();
  const tracer = trace.getTracer('yeoul');

  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function tracedHandler(this: FastifyInstance, request, reply) {
      const entry = active.get(request);
      if (entry === undefined) return handler.call(this, request, reply);
      return context.with(entry.context, () => handler.call(this, request, reply));
    };
  });

  app.addHook('onRequest', async (request, reply) => {
    if (!traced.test(request.url)) return;
    const route = request.routeOptions.url;
    const span = tracer.startSpan(
      `${request.method} ${route ?? request.url.split('?')[0]}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          [ATTR_HTTP_REQUEST_METHOD]: request.method,
          [ATTR_URL_PATH]: request.url.split('?')[0] ?? '/',
          ...(route ? { [ATTR_HTTP_ROUTE]: route } : {}),
          'yeoul.request.id': request.id,
        },
      },
      parentOf(request.headers.traceparent),
    );
    const spanContext = span.spanContext();
    // Set on the raw response: it goes out with Fastify's replies and with hijacked streams.
    reply.raw.setHeader(
      'traceparent',
      `00-${spanContext.traceId}-${spanContext.spanId}-0${spanContext.traceFlags & 1}`,
    );
    active.set(request, { span, context: trace.setSpan(context.active(), span) });
    // Fastify logs "request completed" outside the span's context: it gets the ids bound.
    reply.log = reply.log.child({ trace_id: spanContext.traceId, span_id: spanContext.spanId });
    reply.raw.once('close', () => {
      const status = reply.raw.statusCode;
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
  });
}

/** The client's trace to continue, from a valid `traceparent` header; a new trace otherwise. */
function parentOf(header: string | string[] | undefined): Context {
  const value = Array.isArray(header) ? header[0] : header;
  const match = traceparentPattern.exec(value?.trim().toLowerCase() ?? '');
  if (match === null) return ROOT_CONTEXT;
  const [, version, traceId = '', spanId = '', flags = '00'] = match;
  if (version === 'ff' || /^0+$/.test(traceId) || /^0+$/.test(spanId)) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16) & 1,
    isRemote: true,
  });
}
