import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import {
  type ChatCompletionRequest,
  type FakeOpenAiServer,
  makeConfigProject,
  runYeoul,
  type ServeProcess,
  startFakeOpenAiServer,
  startServeProcess,
  yeoulDoor,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = Record<string, any>;

/** A config with a tool of its own (asking for approval, zod from the project), a persona, and two graphs. */
const configText = (answer: string) => `
import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import { defineConfig } from '${yeoulDoor('config')}';
import { END, START, StateGraph, defineState, increment, replace } from '${yeoulDoor('graph')}';
import { defineTool } from '${yeoulDoor('tools')}';

const orderStatus = defineTool({
  name: 'order_status',
  description: 'Looks up the state of an ACME order by its id.',
  inputSchema: z.object({ id: z.string().regex(/^[A-Z]-\\d+$/).describe('the order id, e.g. A-1') }),
  permission: 'ask',
  async execute({ id }, context) {
    appendFileSync(new URL('./calls.log', import.meta.url), id + '\\n');
    return { id, state: '${answer}', session: context.sessionId };
  },
});

export default defineConfig({
  tools: [orderStatus],
  agents: { chat: { persona: 'You are the order desk of ACME.', tools: ['order_status', 'calculator'] } },
  graphs: {
    desk: (kit) =>
      new StateGraph(kit.chatState)
        .addNode('agent', kit.nodes.agent)
        .addNode('tools', kit.nodes.tools)
        .addEdge(START, 'agent')
        .addConditionalEdges('agent', (state) => (state.messages.at(-1)?.toolCalls?.length ? 'tools' : END), ['tools', END])
        .addEdge('tools', 'agent'),
    whoami: (kit) =>
      new StateGraph(defineState({ messages: kit.chatState.messages }))
        .addNode('recall', async (_state, context) => {
          const name = await kit.memoryOf(context)?.get('profile', 'name');
          return { messages: { role: 'assistant', content: 'You are ' + (name?.value ?? 'a stranger') + '.' } };
        })
        .addEdge(START, 'recall')
        .addEdge('recall', END),
    counter: new StateGraph(defineState({ count: increment(), note: replace('') }))
      .addNode('bump', (state) => ({ count: 1, note: 'was ' + state.count }))
      .addEdge(START, 'bump')
      .addEdge('bump', END),
  },
});
`;

/** The scripted model: asks for order_status when the user names an order, then answers from the result. */
function script(request: ChatCompletionRequest) {
  const last = request.body.messages.at(-1);
  if (last?.role === 'tool') {
    const result = JSON.parse(String(last.content)) as { id: string; state: string };
    return { kind: 'text' as const, text: `Order ${result.id} is ${result.state}.` };
  }
  const question = String(last?.content ?? '');
  const order = /order ([A-Z]-\d+)/.exec(question);
  if (order) {
    return {
      kind: 'tool-calls' as const,
      calls: [
        {
          id: `call-${order[1]}`,
          name: 'order_status',
          arguments: JSON.stringify({ id: order[1] }),
        },
      ],
    };
  }
  return { kind: 'text' as const, text: 'Hello from the scripted model.' };
}

async function post(url: string, body: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

describe('a config file of tools, a persona and graphs, served on every surface', () => {
  let fake: FakeOpenAiServer;
  let project: string;
  let dataDir: string;
  let server: ServeProcess;
  let env: Record<string, string>;
  const configArgs = () => ['--config', join(project, 'yeoul.config.ts')];

  before(async () => {
    fake = await startFakeOpenAiServer((request) => script(request));
    project = makeConfigProject({ 'yeoul.config.ts': configText('shipped') });
    dataDir = mkdtempSync(join(tmpdir(), 'yeoul-config-data-'));
    env = { YEOUL_MODEL: 'compat:scripted', YEOUL_COMPAT_BASE_URL: fake.baseUrl };
    server = await startServeProcess(dataDir, env, configArgs());
  });

  after(async () => {
    await server?.stop();
    await fake?.close();
  });

  it('lists the config’s tool and graphs in the status and the graph list', async () => {
    const status = (await (await fetch(`${server.url}/api/agent/status`)).json()) as Json;
    assert.ok(status.tools.includes('order_status'));
    assert.deepEqual(status.graphs, ['chat', 'react', 'ops', 'desk', 'whoami', 'counter']);
    assert.equal(status.config.state, 'ok');
    const graphs = (await (await fetch(`${server.url}/api/graphs`)).json()) as Json;
    const byName = Object.fromEntries(graphs.graphs.map((graph: Json) => [graph.name, graph]));
    assert.equal(byName.desk.chat, true);
    assert.equal(byName.desk.builtin, false);
    assert.equal(byName.counter.chat, false);
    assert.match(byName.desk.mermaid, /agent/);
  });

  it('gives the chat agent the persona and exactly the tools named, with the project’s zod schema', async () => {
    const before = fake.requests.length;
    const { body } = await post(`${server.url}/api/agent/invoke`, { message: 'hi there' });
    assert.equal(body.status, 'published');
    const request = fake.requests.slice(before).find((entry) => entry.body.tools !== undefined);
    assert.ok(request, 'the agent called the model with tools');
    const system = request.body.messages[0];
    assert.equal(system?.role, 'system');
    assert.match(String(system?.content), /^You are the order desk of ACME\./);
    const offered = (request.body.tools ?? []).map((tool) => tool.function.name).sort();
    assert.deepEqual(offered, ['calculator', 'order_status']);
    const schema = request.body.tools?.find((tool) => tool.function.name === 'order_status')
      ?.function.parameters as Json;
    assert.deepEqual(schema.required, ['id']);
    assert.equal(schema.properties.id.description, 'the order id, e.g. A-1');
  });

  it('pauses the user chat graph before an ask tool, runs it once when approved, refuses a second decision', async () => {
    const first = await post(`${server.url}/api/agent/invoke`, {
      message: 'Where is order A-1?',
      sessionId: 'desk-1',
      options: { graph: 'desk' },
    });
    assert.equal(first.body.status, 'interrupted');
    const [pending] = first.body.interrupts;
    assert.equal(pending.tool, 'order_status');
    assert.deepEqual(pending.args, { id: 'A-1' });
    const decided = await post(`${server.url}/api/agent/invoke`, {
      sessionId: 'desk-1',
      resume: { decisions: [{ id: pending.id, approve: true }] },
    });
    assert.equal(decided.status, 200);
    assert.equal(decided.body.response, 'Order A-1 is shipped.');
    assert.deepEqual(decided.body.toolsUsed, ['order_status']);
    const again = await post(`${server.url}/api/agent/invoke`, {
      sessionId: 'desk-1',
      resume: { decisions: [{ id: pending.id, approve: true }] },
    });
    assert.equal(again.status, 409);
    assert.equal(readFileSync(join(project, 'calls.log'), 'utf8'), 'A-1\n');
    const session = (await (await fetch(`${server.url}/api/sessions/desk-1`)).json()) as Json;
    assert.equal(session.graph, 'desk');
    assert.equal(session.messages.at(-1).content, 'Order A-1 is shipped.');
  });

  it('keeps a session with its graph: another graph named for it is a 409', async () => {
    const other = await post(`${server.url}/api/agent/invoke`, {
      message: 'hello',
      sessionId: 'desk-1',
      options: { graph: 'chat' },
    });
    assert.equal(other.status, 409);
    assert.equal(other.body.error.code, 'graph_mismatch');
    const unknown = await post(`${server.url}/api/agent/invoke`, {
      message: 'hello',
      options: { graph: 'nope' },
    });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'graph_not_found');
    const notChat = await post(`${server.url}/api/agent/invoke`, {
      message: 'hello',
      options: { graph: 'counter' },
    });
    assert.equal(notChat.status, 400);
  });

  it('hands a user graph the long-term memory of the request’s owner', async () => {
    const put = await fetch(`${server.url}/api/memory/profile/name`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ value: '철수' }),
    });
    assert.equal(put.status, 200);
    const asked = await post(`${server.url}/api/agent/invoke`, {
      message: 'who am I?',
      options: { graph: 'whoami' },
    });
    assert.equal(asked.body.response, 'You are 철수.');
    const off = await post(`${server.url}/api/agent/invoke`, {
      message: 'who am I?',
      options: { graph: 'whoami', longTermMemory: false },
    });
    assert.equal(off.body.response, 'You are a stranger.');
  });

  it('runs any graph through /api/graphs/:name/invoke and refuses bad input naming the field', async () => {
    const first = await post(`${server.url}/api/graphs/counter/invoke`, {
      input: { count: 5 },
      threadId: 'counter-1',
    });
    assert.deepEqual(first.body, {
      threadId: 'counter-1',
      status: 'done',
      values: { count: 6, note: 'was 5' },
    });
    const second = await post(`${server.url}/api/graphs/counter/invoke`, {
      input: { count: 1 },
      threadId: 'counter-1',
    });
    assert.equal(second.body.values.count, 8);
    const bad = await post(`${server.url}/api/graphs/counter/invoke`, {
      input: { count: 'x', color: 'red' },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'invalid_input');
    assert.match(bad.body.error.message, /input\.count/);
    assert.match(bad.body.error.message, /input\.color/);
    const missing = await post(`${server.url}/api/graphs/nope/invoke`, { input: {} });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'graph_not_found');
    const sessions = (await (await fetch(`${server.url}/api/sessions`)).json()) as Json;
    assert.equal(
      sessions.sessions.find((entry: Json) => entry.sessionId === 'counter-1')?.graph,
      'counter',
    );
  });

  it('answers the user chat graph as a /v1 model through the official openai client', async () => {
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const models = await openai.models.list();
    assert.ok(models.data.some((model) => model.id === 'yeoul-desk'));
    assert.ok(!models.data.some((model) => model.id === 'yeoul-counter'));
    const completion = await openai.chat.completions.create({
      model: 'yeoul-desk',
      messages: [{ role: 'user', content: 'hi' }],
    });
    assert.equal(completion.choices[0]?.message.content, 'Hello from the scripted model.');
    const stream = await openai.chat.completions.create({
      model: 'yeoul-desk',
      messages: [{ role: 'user', content: 'hi again' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    assert.equal(text, 'Hello from the scripted model.');
  });

  it('answers the user chat graph through MCP’s ask with graph (official SDK client)', async () => {
    const client = new Client({ name: 'yeoul-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    try {
      const result = (await client.callTool({
        name: 'ask',
        arguments: { message: 'hi', graph: 'desk' },
      })) as Json;
      assert.equal(result.structuredContent.response, 'Hello from the scripted model.');
      const sessionId = result.structuredContent.sessionId;
      const session = (await (
        await fetch(`${server.url}/api/sessions/${sessionId}`)
      ).json()) as Json;
      assert.equal(session.graph, 'desk');
    } finally {
      await client.close();
    }
  });

  it('answers `yeoul ask --graph desk` and refuses a graph that is not a chat graph (exit 2)', async () => {
    const answered = await runYeoul(
      ['ask', '--data', dataDir, ...configArgs(), '--graph', 'desk', 'hi'],
      { env },
    );
    assert.equal(answered.code, 0, answered.stderr);
    assert.equal(answered.stdout.trim(), 'Hello from the scripted model.');
    const refused = await runYeoul(
      ['ask', '--data', dataDir, ...configArgs(), '--graph', 'counter', 'hi'],
      { env },
    );
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /messages channel/);
  });

  it('keeps the user graphs’ sessions across a restart', async () => {
    await server.stop();
    server = await startServeProcess(dataDir, env, configArgs());
    const session = (await (await fetch(`${server.url}/api/sessions/desk-1`)).json()) as Json;
    assert.equal(session.graph, 'desk');
    assert.equal(session.messages.at(-1).content, 'Order A-1 is shipped.');
    const counter = await post(`${server.url}/api/graphs/counter/invoke`, {
      input: { count: 0 },
      threadId: 'counter-1',
    });
    assert.equal(counter.body.values.count, 9);
  });
});

describe('a config file that cannot work', () => {
  it('is refused with exit 2 and every problem on its own line, with its path', async () => {
    const project = makeConfigProject({
      'yeoul.config.ts': `
import { z } from 'zod';
import { defineConfig } from '${yeoulDoor('config')}';
export default defineConfig({
  tools: [
    { name: 'Bad Name', description: 'x', inputSchema: z.object({}), execute: async () => 1 },
    { name: 'calculator', description: 'clash', inputSchema: z.object({}), execute: async () => 1 },
    { name: 'no_schema', description: 'x', inputSchema: {}, execute: async () => 1 },
  ],
  agents: { chat: { persona: 3 }, writer: {} },
  graphs: { Triage: () => null, chat: () => null },
  auth: { authenticate: 'the header x-user' },
  colour: 'blue',
} as never);
`,
    });
    const run = await runYeoul([
      'serve',
      '--config',
      join(project, 'yeoul.config.ts'),
      '--port',
      '0',
    ]);
    assert.equal(run.code, 2, run.stderr);
    for (const expected of [
      /tools\[0\]\.name: tool names are snake_case/,
      /tools\[2\]\.inputSchema: a zod schema/,
      /agents\.chat\.persona/,
      /agents: unknown key "writer"/,
      /graphs\.Triage: graph names match/,
      /graphs\.chat: "chat" is a built-in graph/,
      /auth\.authenticate: a function \(request\) => \{owner, scopes\?\} \| null/,
      /unknown key "colour"/,
    ]) {
      assert.match(run.stderr, expected);
    }
  });

  it('names the tool that clashes with a built-in and a graph factory that returns no graph', async () => {
    const project = makeConfigProject({
      'yeoul.config.ts': `
import { z } from 'zod';
import { defineConfig } from '${yeoulDoor('config')}';
export default defineConfig({
  tools: [{ name: 'calculator', description: 'clash', inputSchema: z.object({}), execute: async () => 1 }],
});
`,
      'graphs.config.ts': `
import { defineConfig } from '${yeoulDoor('config')}';
export default defineConfig({ graphs: { triage: () => 42 as never }, agents: { chat: { tools: ['nope'] } } });
`,
    });
    const clash = await runYeoul(['ask', '--config', join(project, 'yeoul.config.ts'), 'hi']);
    assert.equal(clash.code, 2);
    assert.match(clash.stderr, /tools\[0\]\.name: "calculator" is the name of a built-in tool/);
    const graphs = await runYeoul(['ask', '--config', join(project, 'graphs.config.ts'), 'hi']);
    assert.equal(graphs.code, 2);
    assert.match(graphs.stderr, /graphs\.triage: the function returned number, not a StateGraph/);
    assert.match(graphs.stderr, /agents\.chat\.tools\[0\]: there is no tool "nope"/);
  });

  it('names a file that does not load with its line', async () => {
    const project = makeConfigProject({ 'yeoul.config.ts': 'export default {\n  tools: [,\n' });
    const run = await runYeoul(['ask', '--config', join(project, 'yeoul.config.ts'), 'hi']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /yeoul\.config\.ts:\d+: SyntaxError/);
  });
});

describe('yeoul dev', () => {
  it('applies a saved edit within 2 s, keeps the last good version through a broken save, and recovers', async () => {
    const project = makeConfigProject({ 'yeoul.config.ts': '' });
    const write = (body: string) =>
      writeFileSync(
        join(project, 'yeoul.config.ts'),
        `import { defineConfig } from '${yeoulDoor('config')}';\nimport { answer } from './answer.ts';\n${body}`,
      );
    const shout = `
import { END, START, StateGraph, defineState, messages } from '${yeoulDoor('graph')}';
export default defineConfig({ graphs: { echo: new StateGraph(defineState({ messages: messages() }))
  .addNode('answer', () => ({ messages: { role: 'assistant', content: answer() } }))
  .addEdge(START, 'answer').addEdge('answer', END) } });
`;
    writeFileSync(join(project, 'answer.ts'), `export const answer = () => 'first';\n`);
    write(shout);
    const dataDir = mkdtempSync(join(tmpdir(), 'yeoul-dev-data-'));
    const dev = await startServeProcess(
      dataDir,
      {},
      ['--config', join(project, 'yeoul.config.ts')],
      'dev',
    );
    let said = '';
    dev.child.stderr.on('data', (chunk: Buffer) => {
      said += chunk.toString();
    });
    const ask = async () =>
      (await post(`${dev.url}/api/agent/invoke`, { message: 'hi', options: { graph: 'echo' } }))
        .body;
    const status = async () =>
      ((await (await fetch(`${dev.url}/api/agent/status`)).json()) as Json).config;
    /** Polls until `check` holds, for at most 2 s after the save. */
    const within2s = async (check: () => Promise<boolean>) => {
      const saved = Date.now();
      while (!(await check())) {
        assert.ok(Date.now() - saved < 2000, 'not applied within 2 s of the save');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    try {
      assert.equal((await ask()).response, 'first');
      // An imported file, not the config itself, is edited.
      writeFileSync(join(project, 'answer.ts'), `export const answer = () => 'second';\n`);
      await within2s(async () => (await ask()).response === 'second');
      write(`${shout}\nexport const broken = ;\n`);
      await within2s(async () => (await status()).state === 'error');
      assert.match((await status()).error, /yeoul\.config\.ts:\d+: SyntaxError/);
      assert.equal((await ask()).response, 'second');
      write(shout);
      await within2s(async () => (await status()).state === 'ok');
      writeFileSync(join(project, 'answer.ts'), `export const answer = () => 'third';\n`);
      await within2s(async () => (await ask()).response === 'third');
      const [, count, word] = /reloaded .* \((\d+) (files?) watched\)/.exec(said) ?? [];
      assert.ok(count, `a reload line on stderr: ${said}`);
      assert.equal(word, count === '1' ? 'file' : 'files');
    } finally {
      await dev.stop();
    }
  });
});
