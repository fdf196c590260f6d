import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);

const lineCount = 1_000_000;
const base = Date.parse('2025-03-14T00:00:00Z');
const timeOf = (index: number) => new Date(base + index * 10).toISOString();
/** Every 997th line is a payment-service 500; every 5th of the rest is plain text. */
const isPayment500 = (index: number) => index % 997 === 0;

function line(index: number): string {
  const timestamp = timeOf(index);
  if (isPayment500(index)) {
    return JSON.stringify({
      timestamp,
      level: 'error',
      service: 'payment-service',
      status: 500,
      message: `card-gateway request timed out #${index}`,
      order_id: `ORD-${index}`,
    });
  }
  if (index % 5 === 0)
    return `${timestamp} INFO card-gateway auth approved txn=TX${index} van=KICC 182ms`;
  return JSON.stringify({
    timestamp,
    level: 'info',
    service: 'order-service',
    status: 200,
    message: `order ORD-${index} paid`,
    request_id: `req-${index}`,
    padding: 'x'.repeat(75),
  });
}

describe('file log source on a 200 MB file', () => {
  let directory: string;
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'yeoul-big-logs-'));
    const output = createWriteStream(join(directory, 'big.log'));
    for (let start = 0; start < lineCount; start += 10_000) {
      const block: string[] = [];
      for (let index = start; index < start + 10_000; index += 1) block.push(line(index));
      if (!output.write(`${block.join('\n')}\n`)) await once(output, 'drain');
    }
    await new Promise<void>((resolve, reject) =>
      output.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  });
  after(() => rm(directory, { recursive: true, force: true }));

  it('counts every match exactly with peak memory < 64 MB above the start (in a fresh process)', {
    timeout: 120_000,
  }, async () => {
    const size = (await stat(join(directory, 'big.log'))).size;
    assert.ok(size >= 200 * 1024 * 1024, `the file is ${Math.round(size / 1024 / 1024)} MB`);
    // A fresh process, so that writing the file above does not hide the search's own peak.
    const script = `
      import { createFileLogSource } from ${JSON.stringify(new URL('./file-source.ts', import.meta.url).href)};
      const startRss = process.memoryUsage().rss;
      let peakHeap = process.memoryUsage().heapUsed;
      const startHeap = peakHeap;
      const sampler = setInterval(() => { peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed); }, 5);
      const result = await createFileLogSource({ directory: process.argv[1] })
        .query({ service: 'payment-service', status: { from: 500, to: 500 }, limit: 20 }, { signal: AbortSignal.timeout(100_000) });
      clearInterval(sampler);
      const peakRss = process.resourceUsage().maxRSS * 1024;
      console.log(JSON.stringify({ count: result.count, times: result.events.map((event) => event.timestamp), rssGrowth: peakRss - startRss, heapGrowth: peakHeap - startHeap }));
    `;
    const { stdout } = await run(process.execPath, [
      '--input-type=module',
      '-e',
      script,
      directory,
    ]);
    const measured = JSON.parse(stdout) as {
      count: number;
      times: string[];
      rssGrowth: number;
      heapGrowth: number;
    };
    const expected = Math.ceil(lineCount / 997);
    assert.equal(measured.count, expected);
    assert.equal(measured.times.length, 20);
    const lastMatch = (expected - 1) * 997;
    assert.equal(measured.times[0], timeOf(lastMatch));
    assert.equal(measured.times[19], timeOf(lastMatch - 19 * 997));
    const megabytes = (bytes: number) => Math.round(bytes / 1024 / 1024);
    assert.ok(
      megabytes(measured.rssGrowth) < 64,
      `peak RSS grew by ${megabytes(measured.rssGrowth)} MB`,
    );
    assert.ok(
      megabytes(measured.heapGrowth) < 64,
      `heap grew by ${megabytes(measured.heapGrowth)} MB`,
    );
  });
});
