import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  createRuntime,
  type RunningServer,
  readServerConfig,
  startServer,
} from '../src/server/index.ts';
import {
  type ChatCompletionRequest,
  type FakeCompletion,
  type FakeOpenAiServer,
  fakeMcpServerCommand,
  startFakeOpenAiServer,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-mcp-tools-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** The reference server from npm (@modelcontextprotocol/server-everything), on stdio. */
const everything = {
  command: process.execPath,
  args: [
    join(
      import.meta.dirname,
      '..',
      'node_modules',
      '@modelcontextprotocol',
      'server-everything',
      'dist',
      'index.js',
    ),
    'stdio',
  ],
};

/** "sum A B" → everything__get_sum; "echo X" → fake__echo; "crash" → fake__crash; tool results → "result: …". */
function scripted(request: ChatCompletionRequest, index: number): FakeCompletion {
  const last = request.body.messages.at(-1);
  if (last?.role === 'tool') return { kind: 'text', text: `result: ${String(last.content)}` };
  const text = String(last?.content ?? '');
  const call = (name: string, args: unknown): FakeCompletion => ({
    kind: 'tool-calls',
    calls: [{ id: `call-${index}`, name, arguments: JSON.stringify(args) }],
  });
  const sum = /sum (\d+) (\d+)/.exec(text);
  if (sum) return call('everything__get_sum', { a: Number(sum[1]), b: Number(sum[2]) });
  const echo = /echo (\S+)/.exec(text);
  if (echo) return call('fake__echo', { text: echo[1] });
  if (text.includes('crash')) return call('fake__crash', {});
  return { kind: 'text', text: `answer: ${text}` };
}

describe('MCP servers as tool sources of a running Yeoul (scripted model)', () => {
  let model: FakeOpenAiServer;
  let server: RunningServer;
  const post = async (path: string, body: unknown) => {
    const response = await fetch(server.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const status = async () => (await (await fetch(`${server.url}/api/agent/status`)).json()) as Json;
  const serverNamed = async (name: string) =>
    (await status()).mcpServers.find((entry: Json) => entry.name === name);

  before(async () => {
    model = await startFakeOpenAiServer(scripted);
    const config = join(root, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          everything,
          fake: { ...fakeMcpServerCommand('tools'), permission: 'allow' },
          broken: fakeMcpServerCommand('exit'),
          stuck: fakeMcpServerCommand('hang'),
        },
      }),
    );
    const runtime = await createRuntime(
      readServerConfig({
        YEOUL_DATA_DIR: mkdtempSync(join(root, 'data-')),
        PORT: '0',
        YEOUL_MODEL: 'compat:scripted',
        YEOUL_COMPAT_BASE_URL: model.baseUrl,
        YEOUL_SAMPLE_KNOWLEDGE: 'false',
        YEOUL_MCP_CONFIG: config,
      }),
      // Long enough for four node processes starting at once on a busy machine.
      { mcp: { initTimeoutMs: 4000, restartDelayMs: 50 } },
    );
    server = await startServer(runtime, { logger: false });
  });
  after(async () => {
    await server.close();
    await model.close();
  });

  it('lists each server with its state, tools and error in the status, and never fails the start', async () => {
    const body = await status();
    const byName = Object.fromEntries(body.mcpServers.map((entry: Json) => [entry.name, entry]));
    assert.equal(byName.everything.state, 'connected');
    assert.ok(byName.everything.tools.includes('everything__get_sum'));
    assert.equal(byName.fake.state, 'connected');
    assert.equal(byName.broken.state, 'failed');
    assert.match(byName.broken.error, /exited before it answered initialize/);
    assert.deepEqual(byName.broken.tools, []);
    assert.equal(byName.stuck.state, 'failed');
    assert.match(byName.stuck.error, /did not answer initialize within 4 s/);
    assert.ok(body.tools.includes('everything__echo'), 'MCP tools are listed with the others');
    assert.ok(body.tools.includes('calculator'));
  });

  it('pauses an agent turn before an MCP tool (permission ask), then runs it once approved over HTTP', async () => {
    const paused = await post('/api/agent/invoke', {
      message: 'please sum 2 40',
      sessionId: 'mcp-approval',
    });
    assert.equal(paused.status, 200);
    assert.equal(paused.body.status, 'interrupted');
    const [pending] = paused.body.interrupts;
    assert.equal(pending.tool, 'everything__get_sum');
    assert.deepEqual(pending.args, { a: 2, b: 40 });
    const offered = model.requests
      .at(-1)
      ?.body.tools?.find((tool) => tool.function.name === 'everything__get_sum');
    assert.deepEqual((offered?.function.parameters as Json | undefined)?.required, ['a', 'b']);
    const resumed = await post('/api/agent/invoke', {
      sessionId: 'mcp-approval',
      resume: { decisions: [{ id: pending.id, approve: true }] },
    });
    assert.equal(resumed.body.status, 'published');
    assert.match(resumed.body.response, /^result: .*42/);
    assert.deepEqual(resumed.body.toolsUsed, ['everything__get_sum']);
  });

  it('answers an MCP ask that pauses with what waits and how to decide', async () => {
    const client = new Client({ name: 'yeoul-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    const result = (await client.callTool({
      name: 'ask',
      arguments: { message: 'please sum 1 2', sessionId: 'mcp-ask-approval' },
    })) as Json;
    await client.close();
    assert.equal(result.structuredContent.status, 'interrupted');
    assert.equal(result.structuredContent.interrupts[0].tool, 'everything__get_sum');
    assert.match(
      result.content[0].text,
      /awaits approval[\s\S]*POST \/api\/agent\/invoke .*"sessionId":"mcp-ask-approval"/,
    );
    const resumed = await post('/api/agent/invoke', {
      sessionId: 'mcp-ask-approval',
      resume: { decisions: [{ id: result.structuredContent.interrupts[0].id, approve: false }] },
    });
    assert.match(resumed.body.response, /^result: Error: a person denied this call/);
  });

  it('runs a tool of a server whose entry allows it without asking', async () => {
    const answer = await post('/api/agent/invoke', { message: 'echo hello' });
    assert.equal(answer.body.status, 'published');
    assert.equal(answer.body.response, 'result: echo: hello');
  });

  it('ends a turn whose MCP server dies mid-call with a tool error, and restarts the server', async () => {
    const answer = await post('/api/agent/invoke', { message: 'please crash' });
    assert.equal(answer.body.status, 'published');
    assert.match(
      answer.body.response,
      /^result: Error: crash \(MCP server "fake"\): the server went away during the call/,
    );
    const deadline = Date.now() + 10_000;
    while ((await serverNamed('fake')).state !== 'connected') {
      assert.ok(Date.now() < deadline, 'the server came back');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const again = await post('/api/agent/invoke', { message: 'echo again' });
    assert.equal(again.body.response, 'result: echo: again');
  });
});

describe('YEOUL_MCP_CONFIG that cannot be read', () => {
  it('refuses to start with every problem listed', async () => {
    const config = join(root, 'bad.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { nothing: {} } }));
    await assert.rejects(
      createRuntime(
        readServerConfig({
          YEOUL_DATA_DIR: mkdtempSync(join(root, 'data-')),
          YEOUL_MCP_CONFIG: config,
          YEOUL_TOOL_PERMISSIONS: 'nothing__x:sometimes',
        }),
      ),
      (error: Json) => {
        assert.equal(error.code, 'config_invalid');
        assert.match(error.message, /mcpServers\.nothing: needs "command"/);
        return true;
      },
    );
  });
});
