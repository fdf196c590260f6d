import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { startThrowawayServer } from './throwaway-server.ts';

describe('startThrowawayServer', () => {
  it('serves the offline model on a free port and removes its data folder on close', async () => {
    const server = await startThrowawayServer();
    try {
      const status = (await (await fetch(`${server.url}/api/agent/status`)).json()) as {
        model: string;
      };
      assert.match(status.model, /^offline:/);
      const response = await fetch(`${server.url}/api/agent/invoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: '123 * 456 계산해줘' }),
      });
      const body = (await response.json()) as { response: string; toolsUsed: string[] };
      assert.deepEqual(body.toolsUsed, ['calculator']);
      assert.match(body.response, /56,088/);
    } finally {
      await server.close();
    }
    assert.equal(existsSync(server.dataDir), false);
  });
});
