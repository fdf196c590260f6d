import {
  type Attributes,
  context,
  INVALID_SPAN_CONTEXT,
  ProxyTracerProvider,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';

/**
 * Spans through `@opentelemetry/api` only: without a registered SDK every span is the
 * API's non-recording no-op and `work` runs as it would untraced (no context switch, no
 * attributes built), so the cost is a few allocations per span. The SDK and the exporter
 * are wired by the server when `OTEL_EXPORTER_OTLP_ENDPOINT` is set.
 */

/** GenAI semantic-convention attribute names (OpenTelemetry 1.45, still incubating: copied, as advised). */
export const genAi = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  system: 'gen_ai.system',
  requestModel: 'gen_ai.request.model',
  requestTemperature: 'gen_ai.request.temperature',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  outputType: 'gen_ai.output.type',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  systemInstructions: 'gen_ai.system_instructions',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  conversationId: 'gen_ai.conversation.id',
  workflowName: 'gen_ai.workflow.name',
  errorType: 'error.type',
} as const;

const settings = { recordContent: false };
let cached: { provider: TracerProvider; tracer: Tracer } | undefined;
let untraced: { provider: TracerProvider; span: Span } | undefined;

/**
 * Whether spans may carry message text (prompts, answers, tool arguments and results):
 * `YEOUL_TRACE_CONTENT=1`. Off by default; set by whoever registers the SDK.
 */
export function setTraceContentRecording(on: boolean): void {
  settings.recordContent = on;
}

/** True when spans may carry message text (see `setTraceContentRecording`). */
export function recordsTraceContent(): boolean {
  return settings.recordContent;
}

/**
 * Yeoul's tracer from the provider registered now (a new registration is picked up), or
 * undefined while none is: then spans are skipped outright, not made as no-ops.
 */
function tracer(): Tracer | undefined {
  const provider = trace.getTracerProvider();
  untraced ??= {
    provider: new ProxyTracerProvider().getDelegate(),
    span: trace.wrapSpanContext(INVALID_SPAN_CONTEXT),
  };
  if (provider instanceof ProxyTracerProvider && provider.getDelegate() === untraced.provider) {
    return undefined;
  }
  if (cached?.provider !== provider) cached = { provider, tracer: provider.getTracer('yeoul') };
  return cached.tracer;
}

/**
 * Runs `work` inside a span named `name` (the active span while it runs, so spans it
 * starts are its children) and returns what it returns — a value or a promise, unchanged
 * when tracing is off. A throw or rejection is recorded on the span (status ERROR,
 * `error.type` the error's code or name, an exception event without a stack) and passed on.
 * @example
 * await inSpan('graph.node agent', SpanKind.INTERNAL, (span) => {
 *   if (span.isRecording()) span.setAttribute('yeoul.graph.node', 'agent');
 *   return runNode();
 * });
 */
export function inSpan<T>(name: string, kind: SpanKind, work: (span: Span) => T): T {
  const active = tracer();
  // No SDK registered: `work` gets the API's shared non-recording span and runs as is.
  if (active === undefined) return work((untraced as { span: Span }).span);
  const span = active.startSpan(name, { kind });
  if (!span.isRecording()) return work(span);
  return context.with(trace.setSpan(context.active(), span), () => {
    let result: T;
    try {
      result = work(span);
    } catch (error) {
      recordError(span, error);
      span.end();
      throw error;
    }
    if (!(result instanceof Promise)) {
      span.end();
      return result;
    }
    return result.then(
      (value: unknown) => {
        span.end();
        return value;
      },
      (error: unknown) => {
        recordError(span, error);
        span.end();
        throw error;
      },
    ) as T;
  });
}

/** Marks a span failed: status ERROR, `error.type`, and an exception event (message, no stack). */
export function recordError(span: Span, error: unknown): void {
  if (!span.isRecording()) return;
  const type = errorType(error);
  const message = error instanceof Error ? error.message : String(error);
  span.setAttribute(genAi.errorType, type);
  span.addEvent('exception', { 'exception.type': type, 'exception.message': message });
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** The active span's ids for log lines, or undefined outside a recorded span. */
export function activeTraceIds(): { trace_id: string; span_id: string } | undefined {
  const span = trace.getActiveSpan();
  if (span === undefined) return undefined;
  const { traceId, spanId, traceFlags } = span.spanContext();
  // traceFlags bit 0 = sampled; an unsampled or invalid context names no exported trace.
  if ((traceFlags & 1) === 0 || /^0+$/.test(traceId)) return undefined;
  return { trace_id: traceId, span_id: spanId };
}

function errorType(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.length > 0) return code;
  return error instanceof Error ? error.name : 'Error';
}

export { type Attributes, type Span, SpanKind, SpanStatusCode };
