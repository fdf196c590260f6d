import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createFileLogSource } from './file-source.ts';
import { logSourceConformance } from './log-source-conformance.ts';
import type { LogQuery } from './types.ts';

logSourceConformance('file', async (events) => {
  const directory = await mkdtemp(join(tmpdir(), 'yeoul-file-logs-'));
  // One file per service, one of them in a sub-folder: order comes from the times, not the files.
  const byService = Map.groupBy(events, (event) => event.service ?? 'unknown');
  await mkdir(join(directory, 'archive'));
  for (const [service, serviceEvents] of byService) {
    const file =
      service === 'order-service' ? join('archive', `${service}.log`) : `${service}.jsonl`;
    await writeFile(
      join(directory, file),
      serviceEvents.map((event) => `${JSON.stringify(event)}\n`).join(''),
    );
  }
  return {
    source: createFileLogSource({ directory }),
    close: () => rm(directory, { recursive: true, force: true }),
  };
});

describe('file log source', () => {
  let directory: string;
  const query = (fields: Partial<LogQuery>) =>
    createFileLogSource({ directory }).query(
      { limit: 20, ...fields },
      { signal: AbortSignal.timeout(5_000) },
    );

  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'yeoul-file-logs-'));
    await writeFile(
      join(directory, 'card-gateway.log'),
      [
        '2025-03-14T05:03:11.902Z ERROR card-gateway upstream Timeout after 5000ms txn=TX1',
        '[2025-03-14 05:03:20,101] WARN card-gateway retry 1 of 3 (HTTP 500) txn=TX1',
        '2025-03-14 05:03:30 INFO card-gateway auth approved txn=TX2 1500ms',
        'no timestamp here: ERROR card-gateway-v2 crashed with status 503',
        '',
      ].join('\r\n'),
    );
    await writeFile(
      join(directory, 'yeoul.jsonl'),
      [
        JSON.stringify({
          level: 50,
          time: Date.parse('2025-03-14T05:04:00Z'),
          msg: 'model call failed',
          service: 'yeoul',
          status: '500',
        }),
        JSON.stringify({
          timestamp: '2025-03-14T05:05:00Z',
          level: 'Warning',
          service: 'Yeoul',
          message: 'slow tool',
          tool: 'query_logs',
        }),
        '{"broken json',
      ].join('\n'),
    );
    await writeFile(join(directory, 'notes.txt'), 'ERROR not a log file\n');
  });
  after(() => rm(directory, { recursive: true, force: true }));

  it('matches plain-text lines by terms for service, level and status, and by substring for text', async () => {
    assert.equal((await query({ service: 'card-gateway' })).count, 3);
    assert.equal((await query({ level: 'error' })).count, 3);
    assert.equal((await query({ status: { from: 500, to: 500 } })).count, 2);
    assert.equal((await query({ status: { from: 500, to: 599 } })).count, 3);
    assert.equal((await query({ contains: 'TIMEOUT' })).count, 1);
    // "1500ms" and the ".500" of no timestamp are not the status 500.
    assert.equal((await query({ contains: 'approved', status: { from: 500, to: 500 } })).count, 0);
  });

  it('reads leading timestamps of text lines for time filters and order; lines without one sort oldest', async () => {
    const all = await query({});
    assert.equal(all.count, 7);
    assert.deepEqual(
      all.events.map((event) => event.timestamp),
      [
        '2025-03-14T05:05:00.000Z',
        '2025-03-14T05:04:00.000Z',
        '2025-03-14T05:03:30.000Z',
        '2025-03-14T05:03:20.101Z',
        '2025-03-14T05:03:11.902Z',
        undefined,
        undefined,
      ],
    );
    assert.equal(all.events[2]?.file, 'card-gateway.log');
    const windowed = await query({
      since: new Date('2025-03-14T05:03:20Z'),
      until: new Date('2025-03-14T05:04:00Z'),
    });
    assert.equal(windowed.count, 2, 'lines without a time are left out of a time window');
  });

  it("reads pino's JSON lines: numeric level, time in milliseconds, msg, status as text", async () => {
    const result = await query({
      service: 'yeoul',
      level: 'error',
      status: { from: 500, to: 500 },
    });
    assert.equal(result.count, 1);
    assert.deepEqual(result.events[0], {
      message: 'model call failed',
      timestamp: '2025-03-14T05:04:00.000Z',
      level: 'error',
      service: 'yeoul',
      status: 500,
    });
    const warned = await query({ level: 'WARN' });
    assert.equal(warned.events[0]?.tool, 'query_logs', 'other fields are kept');
  });

  it('fails with the folder named when it does not exist', async () => {
    const source = createFileLogSource({ directory: join(directory, 'missing') });
    await assert.rejects(
      source.query({ limit: 5 }, { signal: AbortSignal.timeout(1_000) }),
      /the log folder .*missing does not exist; set YEOUL_LOGS/,
    );
  });

  it('stops reading when the signal fires', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled by test'));
    await assert.rejects(
      createFileLogSource({ directory }).query({ limit: 5 }, { signal: controller.signal }),
      /cancelled by test/,
    );
  });
});
