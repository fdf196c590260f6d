import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureSampleLogs, sampleLogsDir } from './ensure-sample-logs.ts';
import { createFileLogSource } from './file-source.ts';
import type { LogQuery } from './types.ts';

describe('sample logs', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'yeoul-samples-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('copies the sample log files into a folder that does not exist yet, once', async () => {
    const logs = join(dataDir, 'data', 'logs');
    assert.equal(await ensureSampleLogs(logs), true);
    assert.deepEqual((await readdir(logs)).sort(), [
      'card-gateway.log',
      'order-service.jsonl',
      'payment-service.jsonl',
    ]);
    assert.equal(
      await readFile(join(logs, 'card-gateway.log'), 'utf8'),
      await readFile(join(sampleLogsDir, 'card-gateway.log'), 'utf8'),
    );
    assert.equal(await ensureSampleLogs(logs), false);
    assert.deepEqual(
      (await readdir(join(dataDir, 'data'))).sort(),
      ['logs'],
      'no temporary folder left',
    );
  });

  it("never touches an existing folder: the user's logs, or one emptied on purpose", async () => {
    const own = join(dataDir, 'own');
    await mkdir(own);
    await writeFile(join(own, 'app.log'), 'mine\n');
    assert.equal(await ensureSampleLogs(own), false);
    assert.deepEqual(await readdir(own), ['app.log']);
    const emptied = join(dataDir, 'emptied');
    await mkdir(emptied);
    assert.equal(await ensureSampleLogs(emptied), false);
    assert.deepEqual(await readdir(emptied), []);
  });

  it('lets one of two simultaneous first starts create the folder', async () => {
    const logs = join(dataDir, 'race', 'logs');
    const created = await Promise.all([ensureSampleLogs(logs), ensureSampleLogs(logs)]);
    assert.deepEqual(created.filter(Boolean).length, 1);
    assert.equal((await readdir(logs)).length, 3);
  });

  it('holds the counts samples/README.md documents (the card-gateway incident)', async () => {
    const source = createFileLogSource({ directory: sampleLogsDir });
    const check = async (fields: Partial<LogQuery>, count: number, newest: string) => {
      const result = await source.query(
        { limit: 1, ...fields },
        { signal: AbortSignal.timeout(5_000) },
      );
      assert.deepEqual(
        [result.count, result.events[0]?.timestamp],
        [count, newest],
        JSON.stringify(fields),
      );
    };
    const status500 = { from: 500, to: 500 };
    await check({ service: 'payment-service', status: status500 }, 17, '2025-03-14T05:07:38.837Z');
    await check(
      { service: 'payment-service', status: status500, level: 'error' },
      17,
      '2025-03-14T05:07:38.837Z',
    );
    await check({ service: 'payment-service', level: 'error' }, 19, '2025-03-14T09:30:47.074Z');
    await check(
      { service: 'payment-service', status: { from: 500, to: 599 } },
      19,
      '2025-03-14T09:30:47.074Z',
    );
    await check({ service: 'order-service', level: 'error' }, 9, '2025-03-14T05:07:39.067Z');
    await check(
      { service: 'order-service', status: { from: 502, to: 502 } },
      9,
      '2025-03-14T05:07:39.067Z',
    );
    await check({ service: 'card-gateway', contains: 'timeout' }, 21, '2025-03-14T05:07:38.763Z');
    await check({ service: 'card-gateway', level: 'error' }, 21, '2025-03-14T05:07:38.763Z');
    await check({ level: 'error' }, 49, '2025-03-14T09:30:47.074Z');
    await check({}, 579, '2025-03-14T11:53:10.049Z');
  });
});
