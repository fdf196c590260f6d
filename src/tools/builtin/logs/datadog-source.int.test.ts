import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  closedPortUrl,
  datadogStatus,
  type FakeDatadog,
  startFakeDatadog,
} from '../../../testing/internal/index.ts';
import { createDatadogLogSource } from './datadog-source.ts';
import { logSourceConformance } from './log-source-conformance.ts';
import type { LogEvent } from './types.ts';

/** What a JSON log line becomes in Datadog: level → status, `status` → `http.status_code`. */
function toDatadog(events: LogEvent[]) {
  return events.map(({ timestamp, level, service, status, message, ...rest }, index) => ({
    id: `AQAAAY${index}`,
    timestamp: timestamp ?? '',
    status: datadogStatus(level ?? 'info'),
    service: (service ?? '').toLowerCase(),
    message,
    host: 'shop-1',
    tags: [`service:${service}`, 'env:prod'],
    attributes: { ...rest, ...(status === undefined ? {} : { http: { status_code: status } }) },
  }));
}

function sourceFor(fake: FakeDatadog, fields: { apiKey?: string; now?: () => Date } = {}) {
  return createDatadogLogSource({
    apiKey: fields.apiKey ?? fake.apiKey,
    applicationKey: fake.applicationKey,
    apiUrl: fake.url,
    ...(fields.now ? { now: fields.now } : {}),
  });
}

logSourceConformance('Datadog (fake)', async (events) => {
  const fake = await startFakeDatadog({ logs: toDatadog(events) });
  return { source: sourceFor(fake), close: () => fake.close() };
});

describe('Datadog source', () => {
  let fake: FakeDatadog;
  const signal = () => AbortSignal.timeout(5_000);
  const now = new Date('2025-03-14T06:00:00Z');
  before(async () => {
    fake = await startFakeDatadog({
      logs: toDatadog([
        {
          timestamp: '2025-03-14T05:03:16.869Z',
          level: 'error',
          service: 'payment-service',
          status: 500,
          message: 'card-gateway request timed out',
          order_id: 'ORD-1',
        },
        {
          timestamp: '2025-03-14T05:05:00.000Z',
          level: 'info',
          service: 'payment-service',
          status: 200,
          message: 'payment approved',
        },
      ]),
    });
  });
  after(() => fake.close());

  it('counts with the aggregate API and lists with the search API, both keys sent', async () => {
    fake.requests.length = 0;
    const result = await sourceFor(fake, { now: () => now }).query(
      {
        service: 'Payment-Service',
        level: 'ERROR',
        status: { from: 500, to: 599 },
        contains: 'timed out',
        limit: 3,
      },
      { signal: signal() },
    );
    assert.equal(result.count, 1);
    const filter = {
      query: 'service:payment-service status:error @http.status_code:[500 TO 599] "timed out"',
      from: new Date(now.getTime() - 30 * 86_400_000).toISOString(),
      to: now.toISOString(),
    };
    const byPath = new Map(fake.requests.map((request) => [request.path, request]));
    const aggregate = byPath.get('/api/v2/logs/analytics/aggregate');
    assert.deepEqual(JSON.parse(aggregate?.body ?? ''), {
      compute: [{ aggregation: 'count', type: 'total' }],
      filter,
    });
    const search = byPath.get('/api/v2/logs/events/search');
    assert.deepEqual(JSON.parse(search?.body ?? ''), {
      filter,
      sort: '-timestamp',
      page: { limit: 3 },
    });
    assert.equal(search?.headers['dd-api-key'], fake.apiKey);
    assert.equal(search?.headers['dd-application-key'], fake.applicationKey);
    assert.deepEqual(result.events[0], {
      order_id: 'ORD-1',
      http: { status_code: 500 },
      timestamp: '2025-03-14T05:03:16.869Z',
      level: 'error',
      service: 'payment-service',
      status: 500,
      message: 'card-gateway request timed out',
      host: 'shop-1',
      id: 'AQAAAY0',
    });
  });

  it('names refused keys without repeating them', async () => {
    const failure = sourceFor(fake, { apiKey: 'wrong-key-0000', now: () => now }).query(
      { limit: 1 },
      { signal: signal() },
    );
    await assert.rejects(failure, (error: Error) => {
      assert.match(
        error.message,
        /Datadog refused the configured keys \(HTTP 403\): "Forbidden"; the server administrator must fix DD_API_KEY and DD_APP_KEY/,
      );
      assert.ok(!error.message.includes(fake.applicationKey));
      return true;
    });
  });

  it('reports an unreachable Datadog', async () => {
    const source = createDatadogLogSource({
      apiKey: 'a-key-1',
      applicationKey: 'an-app-key-1',
      apiUrl: await closedPortUrl(),
    });
    await assert.rejects(
      source.query({ limit: 1 }, { signal: signal() }),
      /Datadog could not be reached \(connection refused\)/,
    );
  });
});
