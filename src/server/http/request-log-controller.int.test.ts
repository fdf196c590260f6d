import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import { createLogger } from '../runtime/create-logger.ts';
import { createRuntime } from '../runtime/create-runtime.ts';
import { readServerConfig } from '../runtime/server-config.ts';
import { startServer } from './start-server.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'yeoul-request-log-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

describe('request lines', () => {
  it("log the console's own files at debug and API requests at info", async () => {
    const lines: Array<{ level: number; msg: string; req?: { url: string } }> = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const runtime = await createRuntime(
      readServerConfig({ YEOUL_DATA_DIR: dataDir, YEOUL_SAMPLE_KNOWLEDGE: 'false' }),
    );
    const server = await startServer(runtime, {
      port: 0,
      logger: createLogger({ LOG_LEVEL: 'info' }, destination),
    });
    try {
      const page = await (await fetch(`${server.url}/`)).text();
      const assets = [...page.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((match) => match[1]);
      assert.ok(assets.length > 1, 'the page names its files');
      for (const asset of [...assets, '/web/main.ts', '/docs'])
        await fetch(`${server.url}${asset}`);
      assert.deepEqual(
        lines.filter((line) => line.level >= 30 && /request/.test(line.msg)),
        [],
        'loading the console adds no info line',
      );
      await fetch(`${server.url}/api/agent/status`);
      assert.ok(
        lines.some((line) => line.level === 30 && line.req?.url === '/api/agent/status'),
        'an API request is logged at info',
      );
    } finally {
      await server.close();
    }
  });
});
