import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import {
  createLogger,
  createRuntime,
  type RunningServer,
  readServerConfig,
  startServer,
} from '../src/server/index.ts';
import {
  type ChatCompletionRequest,
  type CollectedSpan,
  type FakeCompletion,
  type FakeOpenAiServer,
  type FakeOtlpCollector,
  startFakeOpenAiServer,
  startFakeOtlpCollector,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const question = 'payment-service에서 500 에러 로그 보여줘';
const answerText = 'payment-service에서 500 에러가 17건 발생했습니다. 가장 최근은 ORD-52116입니다.';
const traceparent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

/** What the judge answers (a test swaps in a judgement that never parses). */
let judgement = '{"score":1,"feedback":""}';

/** The scripted model: query_logs, then the answer; the judge approves. */
function answer(request: ChatCompletionRequest): FakeCompletion {
  if (request.body.response_format) return { kind: 'text', text: judgement };
  if (request.body.messages.at(-1)?.role !== 'tool') {
    return {
      kind: 'tool-calls',
      calls: [
        {
          id: 'call-logs',
          name: 'query_logs',
          arguments: JSON.stringify({ service: 'payment-service', status: 500 }),
        },
      ],
    };
  }
  return { kind: 'text', text: answerText };
}

/** A Yeoul server exporting traces to `collector`, its log lines kept in `lines`. */
async function serve(root: string, model: FakeOpenAiServer, env: Record<string, string>) {
  const lines: Json[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const runtime = await createRuntime(
    readServerConfig({
      YEOUL_DATA_DIR: mkdtempSync(join(root, 'data-')),
      PORT: '0',
      YEOUL_MODEL: 'compat:traced',
      YEOUL_COMPAT_BASE_URL: model.baseUrl,
      ...env,
    }),
    { logger: createLogger({ LOG_LEVEL: 'info' }, destination) },
  );
  return { server: await startServer(runtime), lines };
}

async function invokeOps(server: RunningServer, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/api/agent/invoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ message: question, options: { graph: 'ops' } }),
  });
  return { response, body: (await response.json()) as Json };
}

const childrenOf = (spans: CollectedSpan[], parent: CollectedSpan) =>
  spans.filter((span) => span.parentSpanId === parent.spanId);
const only = (spans: CollectedSpan[], name: string) => {
  const found = spans.filter((span) => span.name === name);
  assert.equal(found.length, 1, `one span "${name}" among ${spans.map((s) => s.name).join(', ')}`);
  return found[0] as CollectedSpan;
};

describe('OpenTelemetry traces over OTLP/HTTP', () => {
  const root = mkdtempSync(join(tmpdir(), 'yeoul-tracing-'));
  let model: FakeOpenAiServer;
  let collector: FakeOtlpCollector;
  before(async () => {
    model = await startFakeOpenAiServer((request) => answer(request));
    collector = await startFakeOtlpCollector();
  });
  after(async () => {
    await model.close();
    await collector.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('exports one trace per run: request → run → nodes → model and tool calls', async () => {
    const { server, lines } = await serve(root, model, {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=secret%20key',
    });
    const { response, body } = await invokeOps(server);
    assert.equal(body.status, 'published');
    const [, traceId, requestSpanId] =
      traceparent.exec(response.headers.get('traceparent') ?? '') ?? [];
    assert.ok(traceId, 'the response names its trace');
    await server.close(); // flushes the spans
    assert.equal(collector.exports[0]?.['x-collector-key'], 'secret key');

    const spans = collector.spans.filter((span) => span.traceId === traceId);
    assert.equal(new Set(collector.spans.map((span) => span.traceId)).size, 1, 'one trace');
    const request = only(spans, 'POST /api/agent/invoke');
    assert.equal(request.spanId, requestSpanId);
    assert.equal(request.parentSpanId, '');
    assert.equal(request.kind, 2);
    assert.equal(request.attributes['http.response.status_code'], 200);
    assert.equal(request.resource['service.name'], 'yeoul');

    const ops = only(spans, 'invoke_workflow ops');
    assert.equal(ops.parentSpanId, request.spanId);
    assert.equal(ops.attributes['gen_ai.operation.name'], 'invoke_workflow');
    assert.equal(ops.attributes['yeoul.graph.status'], 'done');
    assert.deepEqual(
      childrenOf(spans, ops).map((span) => span.name),
      ['node analyze', 'node evaluate', 'node decide', 'node finalize'],
    );
    const analyze = only(spans, 'node analyze');
    const chat = only(childrenOf(spans, analyze), 'invoke_workflow chat');
    const nodes = childrenOf(spans, chat).map((span) => span.name);
    assert.deepEqual(nodes, [
      'node router',
      'node memory',
      'node agent',
      'node tools',
      'node agent',
    ]);

    const [asking, answering] = childrenOf(spans, chat).filter(
      (span) => span.name === 'node agent',
    );
    const call = only(childrenOf(spans, asking as CollectedSpan), 'chat traced');
    assert.equal(call.kind, 3);
    assert.equal(call.attributes['gen_ai.operation.name'], 'chat');
    assert.equal(call.attributes['gen_ai.provider.name'], 'compat');
    assert.equal(call.attributes['gen_ai.request.model'], 'traced');
    assert.equal(call.attributes['gen_ai.request.max_tokens'], 2000);
    assert.deepEqual(call.attributes['gen_ai.response.finish_reasons'], ['tool-calls']);
    assert.equal(call.attributes['gen_ai.usage.input_tokens'], 11);
    assert.equal(call.attributes['gen_ai.usage.output_tokens'], 7);
    assert.equal(childrenOf(spans, answering as CollectedSpan).length, 1);

    const tool = only(childrenOf(spans, only(spans, 'node tools')), 'execute_tool query_logs');
    assert.equal(tool.attributes['gen_ai.tool.name'], 'query_logs');
    assert.equal(tool.attributes['gen_ai.tool.call.id'], 'call-logs');
    assert.equal(typeof tool.attributes['yeoul.tool.duration_ms'], 'number');
    assert.equal(tool.attributes['yeoul.tool.error'], false);

    const judge = only(childrenOf(spans, only(spans, 'node evaluate')), 'chat traced');
    assert.equal(judge.attributes['gen_ai.output.type'], 'json');

    const everything = JSON.stringify(spans.map((span) => [span.attributes, span.events]));
    assert.doesNotMatch(everything, /payment-service에서|17건|ORD-52116/, 'no message text');
    assert.ok(spans.every((span) => span.attributes['gen_ai.input.messages'] === undefined));

    const traced = lines.filter((line) => line.trace_id === traceId);
    assert.ok(traced.length > 0, 'log lines of the request carry its trace id');
  });

  it('records message text only with YEOUL_TRACE_CONTENT=1', async () => {
    collector.spans.length = 0;
    const { server } = await serve(root, model, {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      YEOUL_TRACE_CONTENT: '1',
    });
    await invokeOps(server);
    await server.close();
    const calls = collector.spans.filter((span) => span.name === 'chat traced');
    const input = String(calls[0]?.attributes['gen_ai.input.messages']);
    assert.match(input, /payment-service에서 500 에러 로그 보여줘/);
    const answered = calls.map((span) => String(span.attributes['gen_ai.output.messages']));
    assert.ok(answered.some((output) => output.includes(answerText)));
    const tool = collector.spans.find((span) => span.name === 'execute_tool query_logs');
    assert.deepEqual(JSON.parse(String(tool?.attributes['gen_ai.tool.call.arguments'])), {
      service: 'payment-service',
      status: 500,
    });
    assert.match(String(tool?.attributes['gen_ai.tool.call.result']), /"count":17/);
  });

  it('continues the trace a client started with traceparent', async () => {
    collector.spans.length = 0;
    const { server } = await serve(root, model, { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
    const parent = `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01`;
    const { response } = await invokeOps(server, { traceparent: parent });
    await server.close();
    assert.match(response.headers.get('traceparent') ?? '', new RegExp(`^00-${'ab'.repeat(16)}-`));
    const request = only(collector.spans, 'POST /api/agent/invoke');
    assert.equal(request.traceId, 'ab'.repeat(16));
    assert.equal(request.parentSpanId, 'cd'.repeat(8));
  });

  it('names the trace on streams too, and in the warnings a run logs', async () => {
    collector.spans.length = 0;
    judgement = 'no JSON here';
    const { server, lines } = await serve(root, model, {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    });
    try {
      const response = await fetch(`${server.url}/api/agent/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: question, options: { graph: 'ops' } }),
      });
      const [, traceId] = traceparent.exec(response.headers.get('traceparent') ?? '') ?? [];
      assert.ok(traceId, 'the stream names its trace');
      assert.match(await response.text(), /"status":"error"/);
      const warning = lines.find((line) => line.msg === 'model call failed');
      assert.equal(warning?.trace_id, traceId);
      assert.match(warning?.span_id ?? '', /^[0-9a-f]{16}$/);
    } finally {
      judgement = '{"score":1,"feedback":""}';
      await server.close();
    }
    const judge = collector.spans.filter(
      (span) => span.attributes['gen_ai.output.type'] === 'json',
    );
    assert.equal(judge.length, 1);
    assert.equal(judge[0]?.status.code, 2);
    assert.equal(judge[0]?.attributes['error.type'], 'model_unavailable');
    assert.equal(judge[0]?.events[0]?.name, 'exception');
  });

  it('exports nothing and sends no traceparent when no endpoint is set', async () => {
    collector.spans.length = 0;
    const { server } = await serve(root, model, {});
    const { response, body } = await invokeOps(server);
    await server.close();
    assert.equal(body.status, 'published');
    assert.equal(response.headers.get('traceparent'), null);
    assert.deepEqual(collector.spans, []);
  });
});
