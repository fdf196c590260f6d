// The Mastra peer of `npm run bench:server`: one Agent with a calculator tool and a memory
// whose threads live in a LibSQL file (durable on disk, WAL), served by Mastra's own Hono
// server (`createNodeServer` of @mastra/deployer, what `mastra build` output starts). The
// model is an OpenAI-compatible provider at MODEL_BASE_URL (the bench's scripted model).
// No semantic recall (its embedder would download a model), no working memory, no titles,
// no telemetry. Listens on an ephemeral port on 127.0.0.1 and prints `READY <url>`.
//
// Environment: MODEL_BASE_URL (ends in /v1), DATA_DIR (a directory for the LibSQL file).
import { join } from 'node:path';
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { createTool } from '@mastra/core/tools';
import { createNodeServer } from '@mastra/deployer/server';
import { LibSQLStore } from '@mastra/libsql';
import { Memory } from '@mastra/memory';
import { z } from 'zod';

const modelBaseUrl = process.env.MODEL_BASE_URL;
const dataDir = process.env.DATA_DIR;
if (!modelBaseUrl || !dataDir) {
  console.error('server.mjs: MODEL_BASE_URL and DATA_DIR must be set');
  process.exit(2);
}

const calculator = createTool({
  id: 'calculator',
  description: 'Evaluates an arithmetic expression such as "123 * 456".',
  inputSchema: z.object({ expression: z.string().min(1).max(200) }),
  execute: async ({ expression }) => {
    // The arithmetic of the bench's turn: + - * / and parentheses on decimal numbers.
    if (!/^[\d\s+\-*/().]+$/.test(expression)) return `Error: cannot evaluate "${expression}"`;
    const value = Function(`"use strict"; return (${expression});`)();
    return `${expression} = ${value}`;
  },
});

const storage = new LibSQLStore({ id: 'bench', url: `file:${join(dataDir, 'mastra.db')}` });

const agent = new Agent({
  id: 'calculator-agent',
  name: 'calculator-agent',
  instructions: 'You are a helpful assistant. Use the calculator for arithmetic.',
  model: { providerId: 'bench', modelId: 'scripted', url: modelBaseUrl, apiKey: 'bench' },
  tools: { calculator },
  memory: new Memory({
    storage,
    options: {
      lastMessages: 10,
      semanticRecall: false,
      workingMemory: { enabled: false },
      generateTitle: false,
    },
  }),
});

const mastra = new Mastra({
  agents: { calculatorAgent: agent },
  storage,
  logger: false,
  server: { port: 0, host: '127.0.0.1' },
});

const server = await createNodeServer(mastra, { tools: {} });
if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
const address = server.address();
console.log(`READY http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
