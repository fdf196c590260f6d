import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { Counter, Gauge, Registry } from 'prom-client';
import {
  closedPortUrl,
  type PrometheusServer,
  startPrometheus,
} from '../../testing/internal/index.ts';
import { createToolEnvironment } from '../environment.ts';
import { ToolRegistry } from '../registry.ts';
import { ToolExecutor } from '../tool-executor.ts';
import type { ToolEnvironment } from '../types.ts';
import { queryMetricsTool } from './query-metrics.ts';

async function call(env: ToolEnvironment, args: unknown) {
  const executor = new ToolExecutor(new ToolRegistry().register(queryMetricsTool), { env });
  return executor.execute({ id: 'call-1', name: 'query_metrics', args });
}

/** A small exporter in Prometheus's text format: a counter that grows by 5 per scrape, a gauge, 30 workers. */
async function startExporter(): Promise<{ server: Server; target: string }> {
  const registry = new Registry();
  const requests = new Counter({
    name: 'shop_http_requests_total',
    help: 'HTTP requests handled.',
    labelNames: ['service', 'status'],
    registers: [registry],
  });
  const depth = new Gauge({
    name: 'shop_queue_depth',
    help: 'Orders waiting.',
    registers: [registry],
  });
  const busy = new Gauge({
    name: 'shop_worker_busy',
    help: 'Whether a worker is busy.',
    labelNames: ['worker'],
    registers: [registry],
  });
  depth.set(7);
  for (let worker = 0; worker < 30; worker += 1)
    busy.set({ worker: `w${String(worker).padStart(2, '0')}` }, worker % 2);
  requests.inc({ service: 'payment-service', status: '200' }, 100);
  const server = createServer(async (_request, response) => {
    requests.inc({ service: 'payment-service', status: '500' }, 5);
    response.writeHead(200, { 'content-type': registry.contentType });
    response.end(await registry.metrics());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, target: `127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('query_metrics against a real Prometheus', () => {
  let exporter: { server: Server; target: string };
  let prometheus: PrometheusServer;
  let env: ToolEnvironment;
  before(async () => {
    exporter = await startExporter();
    prometheus = await startPrometheus({ targets: [exporter.target] });
    await prometheus.waitForScrapes(3);
    env = createToolEnvironment({ dataDir: tmpdir(), prometheusUrl: prometheus.url });
  });
  after(async () => {
    await prometheus?.close();
    exporter?.server.close();
  });

  it('is offered only when YEOUL_PROMETHEUS_URL is set', () => {
    const registry = new ToolRegistry().register(queryMetricsTool);
    assert.deepEqual(registry.describe(createToolEnvironment({ dataDir: tmpdir() })), []);
    assert.equal(registry.describe(env)[0]?.name, 'query_metrics');
  });

  it('runs an instant query and gives each series its labels and value', async () => {
    const result = await call(env, { query: 'shop_queue_depth' });
    assert.equal(result.isError, false, result.content);
    const output = JSON.parse(result.content);
    assert.equal(output.resultType, 'vector');
    assert.equal(output.seriesCount, 1);
    assert.deepEqual(output.series, [
      {
        labels: { __name__: 'shop_queue_depth', instance: exporter.target, job: prometheus.job },
        value: 7,
      },
    ]);
    assert.ok(Math.abs(Date.parse(output.time) - Date.now()) < 60_000);
  });

  it('runs a range query and summarises each series as points, last, min and max', async () => {
    const result = await call(env, {
      query: 'shop_http_requests_total{status="500"}',
      start: '5m',
    });
    assert.equal(result.isError, false, result.content);
    const output = JSON.parse(result.content);
    assert.equal(output.resultType, 'matrix');
    assert.equal(output.step, '2s', 'five minutes in about 200 points');
    const [series] = output.series;
    assert.deepEqual(series.labels, {
      __name__: 'shop_http_requests_total',
      instance: exporter.target,
      job: prometheus.job,
      service: 'payment-service',
      status: '500',
    });
    assert.ok(series.points >= 2, `${series.points} points`);
    assert.ok(series.min >= 5 && series.min < series.max, JSON.stringify(series));
    assert.equal(series.last, series.max, 'a counter ends at its highest value');
  });

  it('gives scalars as a value and keeps at most 20 series, counting the rest', async () => {
    assert.equal(JSON.parse((await call(env, { query: '1 + 1' })).content).value, 2);
    const output = JSON.parse((await call(env, { query: 'shop_worker_busy' })).content);
    assert.equal(output.seriesCount, 30);
    assert.equal(output.series.length, 20);
    assert.equal(output.omitted, '10 more series left out; narrow the query (e.g. topk or sum by)');
  });

  it("turns Prometheus's own errors and an unreachable Prometheus into clear error results", async () => {
    const bad = await call(env, { query: 'sum(shop_queue_depth' });
    assert.equal(bad.isError, true);
    assert.match(
      bad.content,
      /^Error: Prometheus rejected the query \(HTTP 400\): ".*unclosed left parenthesis.*"; fix the PromQL/,
    );
    const tooFine = await call(env, { query: 'up', start: '30d', step: '1s' });
    assert.match(
      tooFine.content,
      /^Error: Prometheus would return 2592001 points per series, more than the 11000 it allows/,
    );
    const down = createToolEnvironment({ dataDir: tmpdir(), prometheusUrl: await closedPortUrl() });
    assert.match(
      (await call(down, { query: 'up' })).content,
      /^Error: Prometheus could not be reached \(connection refused\)/,
    );
  });
});

describe('startPrometheus', () => {
  it('fails with install instructions when the binary is missing', async () => {
    await assert.rejects(
      startPrometheus({ targets: ['127.0.0.1:1'], binary: '/nonexistent/prometheus' }),
      {
        message:
          /^Prometheus is missing \(no executable at \/nonexistent\/prometheus\);.* Install it: .*\bprometheus\b.* \(or set PROMETHEUS_BIN to its path\)$/,
      },
    );
  });
});
