import { z } from 'zod';
import { environmentVariable, wholeNumber, yesNo } from '../../core/index.ts';

/** OpenTelemetry's standard variables that Yeoul's tracing reads, and its own content switch. */
export const tracingVariables = z.object({
  OTEL_EXPORTER_OTLP_ENDPOINT: environmentVariable(z.string().optional(), {
    meaning:
      'OpenTelemetry traces of runs, nodes, model and tool calls go to this collector (OTLP/HTTP, at `<URL>/v1/traces`)',
    default: 'unset = no tracing',
  }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: environmentVariable(z.string().optional(), {
    meaning: 'the traces URL itself, used as is (wins over `OTEL_EXPORTER_OTLP_ENDPOINT`)',
  }),
  OTEL_EXPORTER_OTLP_HEADERS: environmentVariable(z.string().optional(), {
    meaning: '`name=value,…` headers sent with every export (an API key, say); values URL-encoded',
  }),
  OTEL_SERVICE_NAME: environmentVariable(z.string().optional(), {
    meaning: '`service.name` of the spans',
    default: '`yeoul`',
  }),
  OTEL_BSP_SCHEDULE_DELAY: environmentVariable(
    wholeNumber({ min: 0, unit: 'milliseconds' }).optional(),
    { meaning: 'how long spans wait to be sent in a batch, in ms', default: '`5000`' },
  ),
  YEOUL_TRACE_CONTENT: environmentVariable(yesNo().optional(), {
    meaning: '`1` (or `true`) puts message text in spans',
    default: 'off: spans carry no message text',
  }),
});

/** The tracing variables as read: trimmed, an empty value unset, numbers and switches parsed. */
export type TracingVariables = z.output<typeof tracingVariables>;
