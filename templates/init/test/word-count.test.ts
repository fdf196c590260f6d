import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scriptedLanguageModel, startThrowawayServer } from 'yeoul/testing';
import config from '../yeoul.config.ts';

describe('word_count', () => {
  it('is called by the chat agent, and its result reaches the model', async () => {
    // A scripted model stands in for a real one: first it calls the tool, then it answers.
    const model = scriptedLanguageModel([
      { toolCalls: [{ name: 'word_count', args: { text: 'the quick brown fox' } }] },
      { text: 'Your text has 4 words.' },
    ]);
    const server = await startThrowawayServer({ config, model });
    try {
      const response = await fetch(`${server.url}/api/agent/invoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'How many words are in "the quick brown fox"?' }),
      });
      const body = (await response.json()) as { response: string; toolsUsed: string[] };
      assert.deepEqual(body.toolsUsed, ['word_count']);
      assert.equal(body.response, 'Your text has 4 words.');
      // The second model call saw the tool's result.
      assert.match(JSON.stringify(model.calls.at(-1)?.prompt), /\\"words\\":4/);
    } finally {
      await server.close();
    }
  });
});
