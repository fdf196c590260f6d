import { context, DiagLogLevel, diag, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { Logger } from 'pino';
import { setTraceContentRecording, yeoulVersion } from '../../core/index.ts';
import type { TracingConfig } from './tracing-config.ts';

/** Tracing while it runs: where spans go, and how to flush and stop it. */
export interface Tracing {
  readonly url: string;
  /** Sends the spans still waiting and unregisters the SDK (so another runtime may register). */
  shutdown(): Promise<void>;
}

/** How long an export may take before it is given up (a collector that is away must not hold a shutdown). */
const exportTimeoutMs = 5_000;

/**
 * Registers the OpenTelemetry SDK for the process: a tracer provider whose spans go in
 * batches to the OTLP/HTTP endpoint, an AsyncLocalStorage context manager (so spans nest
 * across awaits), and the SDK's own diagnostics as warnings in the log. The spans
 * themselves are made through `@opentelemetry/api` by the graph, model and tool code.
 * When another SDK is already registered in the process, Yeoul's spans go to it and this
 * one stays unused.
 * @example
 * const tracing = startTracing(config, { logger });
 * await tracing.shutdown();
 */
export function startTracing(config: TracingConfig, options: { logger: Logger }): Tracing {
  const { logger } = options;
  const exporter = new OTLPTraceExporter({
    url: config.url,
    headers: config.headers,
    timeoutMillis: exportTimeoutMs,
  });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: config.serviceName,
      [ATTR_SERVICE_VERSION]: yeoulVersion,
    }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter,
        scheduledDelayMillis: config.scheduledDelayMs,
        exportTimeoutMillis: exportTimeoutMs,
      }),
    ],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  const ownsContext = context.setGlobalContextManager(contextManager);
  const ownsTracer = trace.setGlobalTracerProvider(provider);
  const ownsDiagnostics = diag.setLogger(
    {
      error: (message, ...details) => logger.warn({ details }, `tracing: ${message}`),
      warn: (message, ...details) => logger.warn({ details }, `tracing: ${message}`),
      info: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );
  if (!ownsTracer) {
    logger.warn('tracing: another OpenTelemetry SDK is registered in this process; spans go to it');
  }
  setTraceContentRecording(config.recordContent);
  logger.info(
    { url: config.url, content: config.recordContent },
    'tracing: exporting spans over OTLP/HTTP',
  );
  let stopped: Promise<void> | undefined;
  return {
    url: config.url,
    shutdown() {
      stopped ??= (async () => {
        try {
          await provider.shutdown();
        } catch (error) {
          logger.warn({ err: error }, 'tracing: the last spans could not be sent');
        }
        setTraceContentRecording(false);
        if (ownsTracer) trace.disable();
        if (ownsContext) context.disable();
        else contextManager.disable();
        if (ownsDiagnostics) diag.disable();
      })();
      return stopped;
    },
  };
}
