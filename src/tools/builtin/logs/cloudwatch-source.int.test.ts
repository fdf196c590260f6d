import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  closedPortUrl,
  type FakeCloudWatchLogs,
  startFakeCloudWatchLogs,
} from '../../../testing/internal/index.ts';
import { createCloudWatchLogSource } from './cloudwatch-source.ts';
import { logSourceConformance } from './log-source-conformance.ts';
import type { LogEvent } from './types.ts';

const group = '/ecs/shop';

function toCloudWatch(events: LogEvent[]) {
  return events.map((event) => ({
    logStreamName: `${event.service}/task-1`,
    timestamp: Date.parse(event.timestamp ?? ''),
    message: JSON.stringify(event),
  }));
}

function sourceFor(fake: FakeCloudWatchLogs, secretAccessKey = fake.credentials.secretAccessKey) {
  return createCloudWatchLogSource({
    logGroup: group,
    clientConfig: {
      endpoint: fake.url,
      region: fake.region,
      credentials: { accessKeyId: fake.credentials.accessKeyId, secretAccessKey },
      maxAttempts: 1,
    },
  });
}

logSourceConformance('CloudWatch Logs (fake)', async (events) => {
  // Pages of 7 events: every count needs nextToken followed to the end.
  const fake = await startFakeCloudWatchLogs({
    groups: { [group]: toCloudWatch(events) },
    pageSize: 7,
  });
  return { source: sourceFor(fake), close: () => fake.close() };
});

describe('CloudWatch Logs source', () => {
  let fake: FakeCloudWatchLogs;
  const signal = () => AbortSignal.timeout(10_000);
  const events: LogEvent[] = [
    {
      timestamp: '2025-03-14T05:03:16.869Z',
      level: 'error',
      service: 'payment-service',
      status: 500,
      message: 'card-gateway request timed out',
    },
    {
      timestamp: '2025-03-14T05:04:00.000Z',
      level: 'ERROR',
      service: 'payment-service',
      status: 502,
      message: 'bad gateway',
    },
    {
      timestamp: '2025-03-14T05:05:00.000Z',
      level: 'info',
      service: 'payment-service',
      status: 200,
      message: 'payment approved',
    },
  ];
  before(async () => {
    const groups = {
      [group]: [
        ...toCloudWatch(events),
        {
          logStreamName: 'raw',
          timestamp: Date.parse('2025-03-14T05:06:00Z'),
          message: 'plain text ERROR line',
        },
      ],
    };
    fake = await startFakeCloudWatchLogs({ groups, pageSize: 2 });
  });
  after(() => fake.close());

  it('sends a signed FilterLogEvents request with a JSON filter pattern and an inclusive end time', async () => {
    fake.requests.length = 0;
    const result = await sourceFor(fake).query(
      {
        service: 'payment-service',
        level: 'error',
        status: { from: 500, to: 599 },
        contains: 'timed out',
        since: new Date('2025-03-14T05:00:00Z'),
        until: new Date('2025-03-14T06:00:00Z'),
        limit: 10,
      },
      { signal: signal() },
    );
    assert.equal(result.count, 1);
    const request = fake.requests[0];
    assert.equal(request?.headers['x-amz-target'], 'Logs_20140328.FilterLogEvents');
    assert.match(String(request?.headers['content-type']), /^application\/x-amz-json-1\.1/);
    assert.match(
      String(request?.headers.authorization),
      /^AWS4-HMAC-SHA256 Credential=AKIAFAKEYEOUL0000001\/\d{8}\/ap-northeast-2\/logs\/aws4_request/,
    );
    assert.deepEqual(JSON.parse(request?.body ?? ''), {
      logGroupName: group,
      filterPattern:
        '{ $.service = %^[Pp][Aa][Yy][Mm][Ee][Nn][Tt]-[Ss][Ee][Rr][Vv][Ii][Cc][Ee]$% && ' +
        '$.level = %^[Ee][Rr][Rr][Oo][Rr]$|^[Ee][Rr][Rr]$% && $.status >= 500 && $.status <= 599 && ' +
        '$.message = "*timed out*" }',
      startTime: Date.parse('2025-03-14T05:00:00Z'),
      endTime: Date.parse('2025-03-14T06:00:00Z') - 1,
      limit: 10_000,
    });
  });

  it('follows nextToken through every page for the count', async () => {
    fake.requests.length = 0;
    const result = await sourceFor(fake).query({ limit: 1 }, { signal: signal() });
    assert.equal(result.count, 4);
    assert.equal(fake.requests.length, 2, 'two pages of two events');
    const [first, second] = fake.requests.map((request) => JSON.parse(request.body));
    assert.equal(first.nextToken, undefined);
    assert.equal(typeof second.nextToken, 'string', 'the second request carries the token');
    assert.deepEqual(result.events, [
      { timestamp: '2025-03-14T05:06:00.000Z', message: 'plain text ERROR line', logStream: 'raw' },
    ]);
  });

  it('keeps the JSON fields and the stream of each event', async () => {
    const result = await sourceFor(fake).query({ level: 'error', limit: 5 }, { signal: signal() });
    assert.equal(result.count, 2);
    assert.deepEqual(result.events[1], { ...events[0], logStream: 'payment-service/task-1' });
  });

  it('names a refused secret key and a missing log group in words the model can act on', async () => {
    await assert.rejects(
      sourceFor(fake, 'wrong-secret').query({ limit: 1 }, { signal: signal() }),
      /CloudWatch Logs refused the AWS credentials \(HTTP 400\).*signature we calculated does not match/,
    );
    const missing = createCloudWatchLogSource({
      logGroup: '/ecs/none',
      clientConfig: {
        endpoint: fake.url,
        region: fake.region,
        credentials: fake.credentials,
        maxAttempts: 1,
      },
    });
    await assert.rejects(
      missing.query({ limit: 1 }, { signal: signal() }),
      /CloudWatch Logs has no log group "\/ecs\/none" \(HTTP 400\)/,
    );
  });

  it('takes region, credentials and endpoint from the environment as the AWS SDK does', async () => {
    const names = [
      'AWS_REGION',
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_ENDPOINT_URL_CLOUDWATCH_LOGS',
    ];
    const saved = names.map((name) => process.env[name]);
    Object.assign(process.env, {
      AWS_REGION: fake.region,
      AWS_ACCESS_KEY_ID: fake.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: fake.credentials.secretAccessKey,
      AWS_ENDPOINT_URL_CLOUDWATCH_LOGS: fake.url,
    });
    try {
      const result = await createCloudWatchLogSource({ logGroup: group }).query(
        { status: { from: 500, to: 500 }, limit: 1 },
        { signal: signal() },
      );
      assert.equal(result.count, 1);
    } finally {
      names.forEach((name, index) => {
        if (saved[index] === undefined) delete process.env[name];
        else process.env[name] = saved[index];
      });
    }
  });

  it('reports a CloudWatch endpoint that cannot be reached', async () => {
    const source = createCloudWatchLogSource({
      logGroup: group,
      clientConfig: {
        endpoint: await closedPortUrl(),
        region: 'ap-northeast-2',
        credentials: fake.credentials,
        maxAttempts: 1,
      },
    });
    await assert.rejects(
      source.query({ limit: 1 }, { signal: signal() }),
      /CloudWatch Logs could not be reached \(ECONNREFUSED\)/,
    );
  });
});
