import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startThrowawayServer } from 'yeoul/testing';
import config from '../yeoul.config.ts';

describe('the word-counter graph', () => {
  it('answers a chat message with its number of words', async () => {
    const server = await startThrowawayServer({ config });
    try {
      const response = await fetch(`${server.url}/api/agent/invoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'one two three', options: { graph: 'word-counter' } }),
      });
      const body = (await response.json()) as { response: string; status: string };
      assert.equal(body.status, 'published');
      assert.equal(body.response, 'That message has 3 words.');
    } finally {
      await server.close();
    }
  });
});
