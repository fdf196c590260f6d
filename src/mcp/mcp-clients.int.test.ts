import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fakeMcpServerCommand, waitUntil } from '../testing/internal/index.ts';
import { createToolEnvironment, ToolExecutor, ToolRegistry } from '../tools/index.ts';
import { McpClients } from './mcp-clients.ts';
import type { McpServerEntry } from './types.ts';

const everythingServer = join(
  import.meta.dirname,
  '..',
  '..',
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);

const stdio = (name: string, command: string, args: string[], permission = 'ask' as const) =>
  ({ name, transport: 'stdio', command, args, env: {}, permission }) as McpServerEntry;
const fake = (name: string, mode: 'exit' | 'hang' | 'tools') => {
  const { command, args } = fakeMcpServerCommand(mode);
  return stdio(name, command, args);
};

const env = createToolEnvironment({ dataDir: '/tmp/yeoul-mcp-test-unused' });
const open: McpClients[] = [];
after(() => Promise.all(open.map((clients) => clients.close())));

function clientsOf(
  servers: McpServerEntry[],
  options: Partial<ConstructorParameters<typeof McpClients>[1]> = {},
) {
  const registry = new ToolRegistry();
  const clients = new McpClients(servers, { registry, version: 'test', ...options });
  open.push(clients);
  return { registry, clients };
}

/** Runs one call as an agent turn would: the executor's limits, an approval that says yes. */
function call(registry: ToolRegistry, name: string, args: unknown) {
  const executor = new ToolExecutor(registry, { env, approve: async () => true });
  return executor.execute({ id: `call-${name}`, name, args });
}

describe('MCP servers as tool sources', () => {
  it('registers the reference server’s tools as NAME__tool with permission ask, and calls them', async () => {
    const { registry, clients } = clientsOf([
      stdio('everything', process.execPath, [everythingServer, 'stdio']),
    ]);
    await clients.start();
    const [status] = clients.status();
    assert.equal(status?.state, 'connected');
    assert.ok(status?.tools.includes('everything__echo'));
    assert.ok(status?.tools.includes('everything__get_sum'));
    assert.equal(registry.permissionOf('everything__get_sum'), 'ask');
    const described = registry.describe(env).find((tool) => tool.name === 'everything__get_sum');
    assert.deepEqual(described?.inputSchema.required, ['a', 'b']);
    const sum = await call(registry, 'everything__get_sum', { a: 2, b: 40 });
    assert.equal(sum.isError, false);
    assert.match(sum.content, /42/);
    const bad = await call(registry, 'everything__get_sum', { a: 'two' });
    assert.equal(bad.isError, true);
    assert.match(bad.content, /invalid arguments for everything__get_sum/);
  });

  it('applies the entry’s permission and YEOUL_TOOL_PERMISSIONS overrides to MCP tools', async () => {
    const entry = { ...fake('fake', 'tools'), permission: 'allow' as const };
    const { registry, clients } = clientsOf([entry], {
      permissionOverrides: new Map([['fake__fail', 'deny' as const]]),
    });
    await clients.start();
    assert.equal(registry.permissionOf('fake__echo'), 'allow');
    assert.equal(registry.permissionOf('fake__fail'), 'deny');
  });

  it('turns an error result of the server into a tool error the model sees', async () => {
    const { registry, clients } = clientsOf([fake('fake', 'tools')]);
    await clients.start();
    const result = await call(registry, 'fake__fail', {});
    assert.equal(result.isError, true);
    assert.match(
      result.content,
      /^Error: fail \(MCP server "fake"\): the fake tool failed on purpose/,
    );
  });

  it('marks a server that exits at start as failed, quoting its stderr, and offers none of its tools', async () => {
    const { registry, clients } = clientsOf([fake('broken', 'exit')]);
    await clients.start();
    const [status] = clients.status();
    assert.equal(status?.state, 'failed');
    assert.match(status?.error ?? '', /exited before it answered initialize.*refusing to start/);
    assert.deepEqual(status?.tools, []);
    assert.deepEqual(registry.names(), []);
  });

  it('marks a program that cannot be spawned as failed', async () => {
    const { clients } = clientsOf([stdio('missing', 'yeoul-no-such-mcp-server', [])]);
    await clients.start();
    const [status] = clients.status();
    assert.equal(status?.state, 'failed');
    assert.match(status?.error ?? '', /cannot start "yeoul-no-such-mcp-server": no such program/);
  });

  it('fails a server that does not answer initialize in time, without holding up the others', async () => {
    // The limit leaves a busy machine time to start the working one (a node process).
    const { clients } = clientsOf([fake('stuck', 'hang'), fake('fake', 'tools')], {
      limits: { initTimeoutMs: 3000 },
    });
    const started = Date.now();
    await clients.start();
    assert.ok(Date.now() - started < 20_000);
    const [stuck, working] = clients.status();
    assert.equal(stuck?.state, 'failed');
    assert.match(stuck?.error ?? '', /did not answer initialize within 3 s/);
    assert.equal(working?.state, 'connected');
  });

  it('stops waiting after waitMs and lets a slow server go on starting in the background', async () => {
    const { clients } = clientsOf([fake('stuck', 'hang')], { limits: { initTimeoutMs: 800 } });
    await clients.start(50);
    assert.equal(clients.status()[0]?.state, 'starting');
    await waitUntil(() => clients.status()[0]?.state === 'failed', 'the slow server failed');
  });

  it('ends a call whose server dies mid-call with a tool error, then restarts the server', async () => {
    const { registry, clients } = clientsOf([fake('fake', 'tools')], {
      limits: { restartDelayMs: 50 },
    });
    await clients.start();
    const crashed = await call(registry, 'fake__crash', {});
    assert.equal(crashed.isError, true);
    assert.match(
      crashed.content,
      /crash \(MCP server "fake"\): the server went away during the call/,
    );
    const during = await call(registry, 'fake__echo', { text: 'hi' });
    assert.equal(during.isError, true, 'no call waits on a server that is not connected');
    await waitUntil(() => clients.status()[0]?.state === 'connected', 'the server was restarted');
    const again = await call(registry, 'fake__echo', { text: 'again' });
    assert.equal(again.content, 'echo: again');
  });

  it('marks a server that keeps dying as failed once its restarts are used up', async () => {
    const { registry, clients } = clientsOf([fake('fake', 'tools')], {
      limits: { restartDelayMs: 20, maxRestarts: 0 },
    });
    await clients.start();
    await call(registry, 'fake__crash', {});
    await waitUntil(() => clients.status()[0]?.state === 'failed', 'the server failed');
    assert.match(
      clients.status()[0]?.error ?? '',
      /the server exited.*crashing on purpose.*gave up/,
    );
    assert.equal(registry.get('fake__echo'), undefined);
  });

  it('refreshes the tools when the server says its tool list changed', async () => {
    const { registry, clients } = clientsOf([fake('fake', 'tools')]);
    await clients.start();
    assert.equal(registry.get('fake__greet'), undefined);
    await call(registry, 'fake__add_tool', { name: 'greet' });
    await waitUntil(() => registry.get('fake__greet') !== undefined, 'fake__greet was registered');
    assert.ok(clients.status()[0]?.tools.includes('fake__greet'));
    assert.equal((await call(registry, 'fake__greet', {})).content, 'greet ran');
  });

  it('removes the tools and stops the process on close', async () => {
    const { registry, clients } = clientsOf([fake('fake', 'tools')]);
    await clients.start();
    assert.ok(registry.get('fake__echo'));
    await clients.close();
    assert.equal(registry.get('fake__echo'), undefined);
  });
});
