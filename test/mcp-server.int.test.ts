import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RunningServer } from '../src/server/index.ts';
import { startTestServer } from '../src/testing/internal/test-server.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON results
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-mcp-server-'));
after(() => rmSync(root, { recursive: true, force: true }));
const cli = join(import.meta.dirname, '..', 'src', 'cli.ts');

async function serve(env: Record<string, string> = {}) {
  return (await startTestServer(mkdtempSync(join(root, 'data-')), env)).server;
}

async function httpClient(server: RunningServer, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'yeoul-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }),
  );
  return client;
}

const text = (result: Json) => result.content.map((block: Json) => block.text).join('\n');

/** The checks every MCP surface of Yeoul must pass, over whichever transport `connect` opens. */
function mcpServerSuite(connect: () => Promise<Client>) {
  let client: Client;
  before(async () => {
    client = await connect();
  });
  after(() => client.close());

  it('lists ask and search_knowledge with input schemas from zod', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ['ask', 'search_knowledge']);
    const ask = tools.find((tool) => tool.name === 'ask');
    assert.deepEqual(ask?.inputSchema.required, ['message']);
    assert.deepEqual(Object.keys(ask?.inputSchema.properties ?? {}).sort(), [
      'graph',
      'message',
      'sessionId',
    ]);
    const search = tools.find((tool) => tool.name === 'search_knowledge');
    const properties = (search?.inputSchema.properties ?? {}) as Json;
    assert.equal(properties.k.maximum, 50);
  });

  it('answers ask with the agent’s answer and the session to continue, reporting progress', async () => {
    const progress: string[] = [];
    const result = (await client.callTool(
      { name: 'ask', arguments: { message: '123 * 456 계산해줘' } },
      undefined,
      { onprogress: (update) => progress.push(update.message ?? '') },
    )) as Json;
    assert.equal(result.isError, undefined);
    assert.equal(text(result), '123 * 456 = 56,088입니다.');
    assert.equal(result.structuredContent.status, 'published');
    assert.deepEqual(result.structuredContent.toolsUsed, ['calculator']);
    assert.match(result.structuredContent.sessionId, /^[A-Za-z0-9_.:-]+$/);
    assert.ok(progress.includes('calling calculator'), `progress: ${progress.join(' | ')}`);
    assert.ok(progress.includes('step: agent'));
  });

  it('continues a conversation given its sessionId', async () => {
    await client.callTool({
      name: 'ask',
      arguments: { message: '내 이름은 민수야', sessionId: 'mcp-memory' },
    });
    const result = (await client.callTool({
      name: 'ask',
      arguments: { message: '내 이름이 뭐야?', sessionId: 'mcp-memory' },
    })) as Json;
    assert.match(text(result), /민수/);
  });

  it('returns knowledge passages for search_knowledge', async () => {
    const result = (await client.callTool({
      name: 'search_knowledge',
      arguments: { query: '연차 휴가', k: 2 },
    })) as Json;
    assert.equal(result.structuredContent.hits.length, 2);
    assert.ok(
      result.structuredContent.hits.every((hit: Json) => typeof hit.documentId === 'string'),
    );
    assert.match(text(result), /^\[1\] /);
  });

  it('reports invalid arguments as a tool error', async () => {
    const result = (await client.callTool({
      name: 'search_knowledge',
      arguments: { query: 'x', k: 0 },
    })) as Json;
    assert.equal(result.isError, true);
    assert.match(text(result), /k/);
  });
}

describe('MCP server over Streamable HTTP at /mcp (official SDK client)', () => {
  let server: RunningServer;
  before(async () => {
    server = await serve();
  });
  after(() => server.close());

  mcpServerSuite(() => httpClient(server));

  it('answers GET on /mcp with 405: the server opens no stream of its own', async () => {
    const response = await fetch(`${server.url}/mcp`);
    assert.equal(response.status, 405);
    assert.equal(response.headers.get('allow'), 'POST, DELETE');
    assert.equal(((await response.json()) as Json).error.code, -32000);
  });
});

describe('MCP server at /mcp with API keys', () => {
  let server: RunningServer;
  before(async () => {
    server = await serve({ YEOUL_API_KEYS: 'mcp-key' });
  });
  after(() => server.close());

  it('refuses a client without a valid key and serves one with it', async () => {
    await assert.rejects(httpClient(server), /401|unauthori[sz]ed/i);
    await assert.rejects(
      httpClient(server, { authorization: 'Bearer wrong' }),
      /401|unauthori[sz]ed/i,
    );
    const client = await httpClient(server, { authorization: 'Bearer mcp-key' });
    const { tools } = await client.listTools();
    assert.equal(tools.length, 2);
    await client.close();
  });
});

describe('yeoul mcp on stdio (official SDK client, a spawned process)', () => {
  const data = mkdtempSync(join(root, 'stdio-'));
  mcpServerSuite(async () => {
    const client = new Client({ name: 'yeoul-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cli, 'mcp', '--data', data],
        env: { YEOUL_MODEL: 'offline' },
        stderr: 'pipe',
      }),
    );
    return client;
  });
});
