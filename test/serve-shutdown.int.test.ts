import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startFakeOpenAiServer, waitUntil } from '../src/testing/internal/index.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'yeoul-shutdown-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

describe('yeoul serve shutdown', () => {
  it('finishes a running request on SIGTERM, then exits 0', async () => {
    const model = await startFakeOpenAiServer([{ kind: 'text', text: '끝까지 답했습니다.' }], {
      delayMs: 800,
    });
    const child = spawn(
      process.execPath,
      [
        join(import.meta.dirname, '..', 'src', 'cli.ts'),
        'serve',
        '--port',
        '0',
        '--data',
        dataDir,
        '--no-sample',
      ],
      {
        env: {
          ...process.env,
          YEOUL_MODEL: 'compat:slow',
          YEOUL_COMPAT_BASE_URL: model.baseUrl,
          LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match?.[1]) resolve(match[1]);
      });
      child.on('exit', (code) => reject(new Error(`serve exited (${code}) before listening`)));
    });
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    const request = fetch(`${url}/api/agent/invoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'please answer slowly', sessionId: 'late' }),
    });
    // SIGTERM while the model is answering it: the request is in flight.
    await waitUntil(() => model.requests.length > 0, 'the request at the model');
    child.kill('SIGTERM');
    const response = await request;
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as { response: string }).response, '끝까지 답했습니다.');
    const stopped = performance.now();
    assert.equal(await exited, 0);
    assert.ok(
      performance.now() - stopped < 10_000,
      'a keep-alive client does not hold the server open',
    );
    await model.close();
  });
});
