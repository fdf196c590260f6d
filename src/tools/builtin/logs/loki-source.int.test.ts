import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { closedPortUrl, type FakeLoki, startFakeLoki } from '../../../testing/internal/index.ts';
import { logSourceConformance } from './log-source-conformance.ts';
import { createLokiLogSource } from './loki-source.ts';
import type { LogEvent } from './types.ts';

const nanoseconds = (iso: string | undefined) => BigInt(Date.parse(iso ?? '')) * 1_000_000n;

function toStreams(events: LogEvent[]) {
  const byService = Map.groupBy(events, (event) => event.service ?? '');
  return [...byService].map(([service, serviceEvents]) => ({
    labels: { service, job: 'shop' },
    entries: serviceEvents.map((event) => ({
      nanoseconds: nanoseconds(event.timestamp),
      line: JSON.stringify(event),
    })),
  }));
}

logSourceConformance('Loki (fake)', async (events) => {
  const fake = await startFakeLoki({ streams: toStreams(events) });
  return { source: createLokiLogSource({ url: fake.url }), close: () => fake.close() };
});

describe('Loki source', () => {
  let fake: FakeLoki;
  const now = new Date('2025-03-14T06:00:00Z');
  const signal = () => AbortSignal.timeout(5_000);
  before(async () => {
    fake = await startFakeLoki({
      streams: [
        ...toStreams([
          {
            timestamp: '2025-03-14T05:03:16.869Z',
            level: 'error',
            service: 'payment-service',
            status: 500,
            message: 'card-gateway request timed out',
          },
          {
            timestamp: '2025-03-14T05:05:00.000Z',
            level: 'info',
            service: 'payment-service',
            status: 200,
            message: 'payment approved',
          },
        ]),
        {
          labels: { service: 'card-gateway' },
          entries: [
            {
              nanoseconds: nanoseconds('2025-03-14T05:03:11.902Z'),
              line: 'ERROR upstream Timeout after 5000ms',
            },
          ],
        },
      ],
    });
  });
  after(() => fake.close());

  it('sends a LogQL count over exactly [since, until) and a backward log query with the limit', async () => {
    fake.requests.length = 0;
    const since = new Date('2025-03-14T05:00:00Z');
    const until = new Date('2025-03-14T05:30:00Z');
    const source = createLokiLogSource({ url: fake.url, now: () => now });
    const result = await source.query(
      {
        service: 'Payment-Service',
        level: 'error',
        status: { from: 500, to: 599 },
        contains: 'timed out',
        since,
        until,
        limit: 7,
      },
      { signal: signal() },
    );
    assert.equal(result.count, 1);
    const logQuery =
      '{service=~"(?i)Payment-Service"} |~ "(?i)timed out" | json | level=~"(?i)error|err" | status>=500 | status<=599 | __error__=""';
    const count = fake.requests.find((request) => request.path === '/loki/api/v1/query');
    assert.equal(count?.query.get('query'), `sum(count_over_time(${logQuery} [1800000ms]))`);
    assert.equal(count?.query.get('time'), `${BigInt(until.getTime()) * 1_000_000n - 1n}`);
    const range = fake.requests.find((request) => request.path === '/loki/api/v1/query_range');
    assert.deepEqual(Object.fromEntries(range?.query ?? []), {
      query: logQuery,
      start: `${BigInt(since.getTime()) * 1_000_000n}`,
      end: `${BigInt(until.getTime()) * 1_000_000n}`,
      limit: '7',
      direction: 'backward',
    });
    assert.deepEqual(result.events[0], {
      timestamp: '2025-03-14T05:03:16.869Z',
      level: 'error',
      service: 'payment-service',
      status: 500,
      message: 'card-gateway request timed out',
    });
  });

  it('searches the last 30 days without since, and reads plain-text lines when no field is filtered', async () => {
    fake.requests.length = 0;
    const source = createLokiLogSource({ url: fake.url, now: () => now });
    const result = await source.query({ contains: 'timeout', limit: 5 }, { signal: signal() });
    assert.equal(result.count, 1);
    assert.deepEqual(result.events[0], {
      timestamp: '2025-03-14T05:03:11.902Z',
      message: 'ERROR upstream Timeout after 5000ms',
      service: 'card-gateway',
    });
    const start = BigInt(
      fake.requests.find((request) => request.path.endsWith('query_range'))?.query.get('start') ??
        '0',
    );
    assert.equal(start, BigInt(now.getTime() - 30 * 86_400_000) * 1_000_000n);
  });

  it('sends user and password of the URL as basic auth, never in the URL', async () => {
    fake.requests.length = 0;
    const url = fake.url.replace('http://', 'http://tenant-1:s3cret@');
    await createLokiLogSource({ url, now: () => now }).query({ limit: 1 }, { signal: signal() });
    assert.equal(
      fake.requests[0]?.headers.authorization,
      `Basic ${Buffer.from('tenant-1:s3cret').toString('base64')}`,
    );
  });

  it("turns Loki's plain-text 400 and an unreachable Loki into clear errors", async () => {
    fake.failWith({
      kind: 'text',
      status: 400,
      body: 'parse error at line 1, col 2: syntax error: unexpected IDENTIFIER\n',
    });
    try {
      await assert.rejects(
        createLokiLogSource({ url: fake.url }).query({ limit: 1 }, { signal: signal() }),
        /Loki rejected the request \(HTTP 400\): "parse error at line 1, col 2: syntax error: unexpected IDENTIFIER"/,
      );
    } finally {
      fake.failWith(undefined);
    }
    await assert.rejects(
      createLokiLogSource({ url: await closedPortUrl() }).query({ limit: 1 }, { signal: signal() }),
      /Loki could not be reached \(connection refused\)/,
    );
  });
});
