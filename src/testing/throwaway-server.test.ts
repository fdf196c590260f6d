import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { defineConfig } from '../config/index.ts';
import { defineState, END, messages, START, StateGraph } from '../graph/index.ts';
import { defineTool } from '../tools/index.ts';
import { scriptedLanguageModel } from './scripted-language-model.ts';
import { startThrowawayServer } from './throwaway-server.ts';

async function invoke(url: string, body: unknown) {
  const response = await fetch(`${url}/api/agent/invoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { response: string; toolsUsed: string[]; status: string };
}

describe('startThrowawayServer', () => {
  it('serves the offline model on a free port and removes its data folder on close', async () => {
    const server = await startThrowawayServer();
    try {
      const status = (await (await fetch(`${server.url}/api/agent/status`)).json()) as {
        model: string;
      };
      assert.match(status.model, /^offline:/);
      const body = await invoke(server.url, { message: '123 * 456 계산해줘' });
      assert.deepEqual(body.toolsUsed, ['calculator']);
      assert.match(body.response, /56,088/);
    } finally {
      await server.close();
    }
    assert.equal(existsSync(server.dataDir), false);
  });

  it("serves a config's tool and graph, with a scripted model in place of the default", async () => {
    const shout = defineTool({
      name: 'shout',
      description: 'Upper-cases a text.',
      inputSchema: z.object({ text: z.string() }),
      execute: async ({ text }) => text.toUpperCase(),
    });
    const echo = new StateGraph(
      defineState({
        messages: messages<{ id?: string; role: 'user' | 'assistant'; content: string }>(),
      }),
    )
      .addNode('echo', (state) => ({
        messages: { role: 'assistant', content: `echo: ${state.messages.at(-1)?.content}` },
      }))
      .addEdge(START, 'echo')
      .addEdge('echo', END);
    const model = scriptedLanguageModel([
      { toolCalls: [{ name: 'shout', args: { text: 'hi' } }] },
      { text: 'done' },
    ]);
    const config = defineConfig({ tools: [shout], graphs: { echo } });
    const server = await startThrowawayServer({ config, model });
    try {
      const answer = await invoke(server.url, { message: 'shout hi please' });
      assert.deepEqual(answer.toolsUsed, ['shout']);
      assert.equal(answer.response, 'done');
      assert.match(JSON.stringify(model.calls.at(-1)?.prompt), /HI/);
      const echoed = await invoke(server.url, { message: 'ping', options: { graph: 'echo' } });
      assert.equal(echoed.response, 'echo: ping');
    } finally {
      await server.close();
    }
  });

  it('refuses a config that cannot work, naming the problem', async () => {
    await assert.rejects(
      startThrowawayServer({ config: { graphs: { Bad: new StateGraph(defineState({})) } } }),
      /graphs\.Bad/,
    );
  });
});
