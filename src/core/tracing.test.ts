import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { activeTraceIds, inSpan, SpanKind } from './tracing.ts';

describe('spans without an SDK', () => {
  it('runs the work as it is: values, promises and throws pass unchanged', async () => {
    assert.equal(
      inSpan('sync', SpanKind.INTERNAL, () => 42),
      42,
    );
    assert.equal(await inSpan('async', SpanKind.INTERNAL, async () => 'done'), 'done');
    assert.throws(() =>
      inSpan('throws', SpanKind.INTERNAL, () => {
        throw new Error('boom');
      }),
    );
    inSpan('records nothing', SpanKind.INTERNAL, (span) => assert.equal(span.isRecording(), false));
    assert.equal(activeTraceIds(), undefined);
  });
});

describe('spans with an SDK registered', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  before(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(provider);
  });
  after(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
  });

  it('nests the spans work starts, across awaits, and names the active one for logs', async () => {
    let ids: ReturnType<typeof activeTraceIds>;
    await inSpan('outer', SpanKind.INTERNAL, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      await inSpan('inner', SpanKind.CLIENT, async () => {
        ids = activeTraceIds();
      });
    });
    const [inner, outer] = exporter.getFinishedSpans();
    assert.equal(inner?.name, 'inner');
    assert.equal(inner?.parentSpanContext?.spanId, outer?.spanContext().spanId);
    assert.deepEqual(ids, {
      trace_id: outer?.spanContext().traceId,
      span_id: inner?.spanContext().spanId,
    });
  });

  it('records a failure with its code as error.type, and passes it on', async () => {
    exporter.reset();
    const failure = Object.assign(new Error('model down'), { code: 'model_unavailable' });
    await assert.rejects(
      inSpan('failing', SpanKind.CLIENT, async () => {
        throw failure;
      }),
      failure,
    );
    const [span] = exporter.getFinishedSpans();
    assert.equal(span?.status.code, 2);
    assert.equal(span?.attributes['error.type'], 'model_unavailable');
    assert.equal(span?.events[0]?.attributes?.['exception.message'], 'model down');
  });
});
