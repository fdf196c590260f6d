import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { closedPortUrl } from '../../testing/internal/index.ts';
import { createDefaultTools } from '../default-tools.ts';
import { createToolEnvironment } from '../environment.ts';
import { ToolRegistry } from '../registry.ts';
import { ToolExecutor } from '../tool-executor.ts';
import type { ToolEnvironment } from '../types.ts';
import { sampleLogsDir } from './logs/ensure-sample-logs.ts';
import { createFileLogSource } from './logs/file-source.ts';
import { createLokiLogSource } from './logs/loki-source.ts';
import { queryLogsTool } from './query-logs.ts';

const now = new Date('2025-03-14T06:00:00Z');
const samplesEnv = () =>
  createToolEnvironment({
    dataDir: tmpdir(),
    now: () => now,
    logs: createFileLogSource({ directory: sampleLogsDir }),
  });

async function call(env: ToolEnvironment, args: unknown) {
  const executor = new ToolExecutor(new ToolRegistry().register(queryLogsTool), { env });
  return executor.execute({ id: 'call-1', name: 'query_logs', args });
}

describe('query_logs', () => {
  it('is offered only when a log source is configured', async () => {
    const tools = createDefaultTools();
    try {
      const names = (env: ToolEnvironment) => tools.registry.describe(env).map((tool) => tool.name);
      assert.ok(!names(createToolEnvironment({ dataDir: tmpdir() })).includes('query_logs'));
      assert.ok(names(samplesEnv()).includes('query_logs'));
      const description = tools.registry
        .describe(samplesEnv())
        .find((tool) => tool.name === 'query_logs');
      assert.match(
        description?.description ?? '',
        /count is the exact number of ALL matching events/,
      );
    } finally {
      await tools.close();
    }
  });

  it('answers the payment-service 500s question with the exact count first, then the newest events', async () => {
    const result = await call(samplesEnv(), { service: 'payment-service', status: 500 });
    assert.equal(result.isError, false, result.content);
    assert.ok(result.content.startsWith('{"count":17,"events":['), result.content.slice(0, 40));
    const output = JSON.parse(result.content);
    assert.equal(output.events.length, 17);
    assert.equal(output.note, undefined, 'every match is listed');
    assert.deepEqual(output.events[0], {
      timestamp: '2025-03-14T05:07:38.837Z',
      level: 'error',
      service: 'payment-service',
      status: 500,
      message: 'card-gateway request timed out after 5000 ms for ORD-52116',
      order_id: 'ORD-52116',
      request_id: 'req-01230',
      upstream: 'card-gateway',
      duration_ms: 5012,
    });
  });

  it('lists 20 events by default and says the count covers them all', async () => {
    const output = JSON.parse((await call(samplesEnv(), { level: 'ERROR' })).content);
    assert.equal(output.count, 49);
    assert.equal(output.events.length, 20);
    assert.equal(output.note, 'count is exact: 49 events match; events lists the newest 20');
    const counted = JSON.parse((await call(samplesEnv(), { status: '5xx', limit: 0 })).content);
    assert.deepEqual(counted, {
      count: 28,
      events: [],
      note: 'count is exact: 28 events match; events lists the newest 0',
    });
  });

  it('reads since and until as ISO times or durations before now', async () => {
    const lastHour = JSON.parse(
      (await call(samplesEnv(), { service: 'card-gateway', contains: 'timeout', since: '1h' }))
        .content,
    );
    assert.equal(lastHour.count, 21);
    const lastHalfHour = JSON.parse(
      (await call(samplesEnv(), { service: 'card-gateway', contains: 'timeout', since: '30m' }))
        .content,
    );
    assert.deepEqual(lastHalfHour, { count: 0, events: [] });
    const window = await call(samplesEnv(), {
      service: 'payment-service',
      status: 500,
      since: '2025-03-14T05:05:00Z',
      until: '2025-03-14T14:06:00+09:00',
    });
    assert.equal(JSON.parse(window.content).count, 4);
  });

  it('refuses a bad time, status or range with a message the model can act on', async () => {
    const badSince = await call(samplesEnv(), { service: 'payment-service', since: 'yesterday' });
    assert.equal(badSince.isError, true);
    assert.equal(
      badSince.content,
      'Error: invalid arguments for query_logs: since: "yesterday" is neither an ISO time (2025-03-14T14:05:00Z) nor a duration ago (15m, 1h, 2d)',
    );
    const badStatus = await call(samplesEnv(), { status: '5x' });
    assert.match(
      badStatus.content,
      /^Error: invalid arguments for query_logs: status: .*use an HTTP status such as 500, or a class such as 5xx/,
    );
    const reversed = await call(samplesEnv(), { since: '1h', until: '2h' });
    assert.equal(
      reversed.content,
      'Error: since (2025-03-14T05:00:00.000Z) must be before until (2025-03-14T04:00:00.000Z); durations such as 1h mean that long ago',
    );
    const tooMany = await call(samplesEnv(), { limit: 500 });
    assert.match(tooMany.content, /^Error: invalid arguments for query_logs: limit: /);
  });

  it('turns a back end that is down into an error result, not a throw', async () => {
    const env = createToolEnvironment({
      dataDir: tmpdir(),
      logs: createLokiLogSource({ url: await closedPortUrl() }),
    });
    const result = await call(env, { service: 'payment-service' });
    assert.equal(result.isError, true);
    assert.match(
      result.content,
      /^Error: Loki could not be reached \(connection refused\); the service may be down/,
    );
  });

  describe('with huge events', () => {
    let directory: string;
    before(async () => {
      directory = await mkdtemp(join(tmpdir(), 'yeoul-query-logs-'));
      const lines = Array.from({ length: 30 }, (_, index) =>
        JSON.stringify({
          timestamp: new Date(Date.UTC(2025, 2, 14, 5, index)).toISOString(),
          level: 'error',
          service: 'api',
          message: `failure ${index} ${'x'.repeat(20_000)}`,
          stack: 'y'.repeat(50_000),
        }),
      );
      await writeFile(join(directory, 'api.jsonl'), `${lines.join('\n')}\n`);
    });
    after(() => rm(directory, { recursive: true, force: true }));

    it('cuts every event and keeps the whole result within its size, as valid JSON', async () => {
      const env = createToolEnvironment({
        dataDir: tmpdir(),
        logs: createFileLogSource({ directory }),
      });
      const result = await call(env, { service: 'api', limit: 100 });
      assert.ok(result.content.length <= 8_000, `${result.content.length} characters`);
      const output = JSON.parse(result.content);
      assert.equal(output.count, 30);
      assert.ok(output.events.length >= 5 && output.events.length < 30);
      assert.ok(output.events.every((event: { message: string }) => event.message.length <= 420));
      assert.match(
        output.note,
        /^count is exact: 30 events match; events lists the newest \d+ \(the rest left out to fit the size limit\)$/,
      );
      assert.match(output.events[0].message, /^failure 29 x+…$/);
    });
  });
});
