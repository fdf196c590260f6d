import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { defineTool } from './define-tool.ts';
import { createToolEnvironment } from './environment.ts';
import { ToolRegistrationError } from './errors/tool-registration-error.ts';
import { ToolRegistry } from './registry.ts';
import { ToolExecutor } from './tool-executor.ts';

const env = createToolEnvironment({ dataDir: '/tmp/yeoul-unused' });

const echo = defineTool({
  name: 'echo',
  description: 'Repeats text.',
  inputSchema: z.object({ text: z.string().max(20), times: z.number().int().min(1).default(1) }),
  execute: async ({ text, times }) => text.repeat(times),
});
const boom = defineTool({
  name: 'boom',
  description: 'Always fails.',
  inputSchema: z.object({}),
  execute: async () => {
    throw new Error('exploded\n  at secret/stack.ts:1');
  },
});
const slow = defineTool({
  name: 'slow',
  description: 'Never finishes on its own.',
  inputSchema: z.object({}),
  timeoutMs: 50,
  execute: (_input, { signal }) =>
    new Promise((_, reject) =>
      signal.addEventListener('abort', () => reject(new Error('stopped'))),
    ),
});
const big = defineTool({
  name: 'big',
  description: 'Returns a lot.',
  inputSchema: z.object({}),
  maxResultChars: 100,
  execute: async () => ({ data: 'x'.repeat(1000) }),
});

function setup(options: { approve?: (name: string) => boolean } = {}) {
  const registry = new ToolRegistry().register(echo).register(boom).register(slow).register(big);
  const executor = new ToolExecutor(registry, {
    env,
    ...(options.approve ? { approve: async (call) => options.approve?.(call.name) ?? false } : {}),
  });
  return { registry, executor };
}

const call = (name: string, args: unknown, id = name) => ({ id, name, args });

describe('tool registry', () => {
  it('refuses duplicate and malformed names', () => {
    assert.throws(() => new ToolRegistry().register(echo).register(echo), ToolRegistrationError);
    assert.throws(() => new ToolRegistry().register({ ...echo, name: 'Bad Name' }), /snake_case/);
    assert.throws(() => new ToolRegistry().setPermission('missing', 'deny'), {
      code: 'tool_registration',
    });
  });

  it('describes usable tools with JSON Schemas and hides denied ones', () => {
    const { registry } = setup();
    registry.setPermission('boom', 'deny');
    const described = registry.describe(env);
    assert.deepEqual(
      described.map((tool) => tool.name),
      ['echo', 'slow', 'big'],
    );
    const schema = described[0]?.inputSchema as {
      properties: Record<string, unknown>;
      required: string[];
    };
    assert.deepEqual(Object.keys(schema.properties), ['text', 'times']);
    assert.deepEqual(schema.required, ['text']);
  });
});

describe('tool executor', () => {
  it('runs a tool with arguments given as an object or as JSON text', async () => {
    const { executor } = setup();
    assert.equal((await executor.execute(call('echo', { text: 'ab', times: 2 }))).content, 'abab');
    const result = await executor.execute(call('echo', '{"text":"hi"}'));
    assert.deepEqual(
      { content: result.content, isError: result.isError },
      { content: 'hi', isError: false },
    );
  });

  it('turns every kind of failure into an error result, never a throw', async () => {
    const { executor } = setup();
    const results = [
      await executor.execute(call('nope', {})),
      await executor.execute(call('echo', '{not json')),
      await executor.execute(call('echo', { text: 'way too long for the schema', times: 0 })),
      await executor.execute(call('boom', {})),
    ];
    for (const result of results) assert.equal(result.isError, true);
    assert.equal(
      results[0]?.content,
      'Error: unknown tool "nope"; available tools: echo, boom, slow, big',
    );
    assert.equal(
      results[1]?.content,
      'Error: invalid arguments for echo: the arguments are not valid JSON',
    );
    assert.match(
      results[2]?.content ?? '',
      /^Error: invalid arguments for echo: text: .*; times: /,
    );
    assert.equal(results[3]?.content, 'Error: exploded at secret/stack.ts:1');
  });

  it('stops a tool at its time limit', async () => {
    const { executor } = setup();
    const started = performance.now();
    const result = await executor.execute(call('slow', {}));
    assert.equal(result.content, 'Error: slow timed out after 0.05 s');
    assert.ok(performance.now() - started < 1000);
  });

  it('cuts results over the size limit and says so', async () => {
    const { executor } = setup();
    const result = await executor.execute(call('big', {}));
    assert.equal(result.isError, false);
    assert.match(result.content, /^\{"data":"x{91}\n…\[cut: 911 more characters\]$/);
  });

  it('allows 5 tool executions per request and refuses the 6th', async () => {
    const { executor } = setup();
    for (let index = 1; index <= 5; index += 1) {
      assert.equal(
        (await executor.execute(call('echo', { text: `${index}` }, `c${index}`))).isError,
        false,
      );
    }
    const sixth = await executor.execute(call('echo', { text: '6' }, 'c6'));
    assert.deepEqual(
      { isError: sixth.isError, content: sixth.content, callId: sixth.callId },
      {
        isError: true,
        content: 'Error: tool call limit reached: at most 5 tool executions per request',
        callId: 'c6',
      },
    );
  });

  it('refuses denied tools and asks before tools that need approval', async () => {
    const denied = setup();
    denied.registry.setPermission('echo', 'deny');
    assert.equal(
      (await denied.executor.execute(call('echo', { text: 'x' }))).content,
      'Error: tool "echo" is not permitted',
    );

    const unapproved = setup();
    unapproved.registry.setPermission('echo', 'ask');
    assert.match(
      (await unapproved.executor.execute(call('echo', { text: 'x' }))).content,
      /needs approval/,
    );

    const asked: string[] = [];
    const approving = setup({
      approve: (name) => {
        asked.push(name);
        return true;
      },
    });
    approving.registry.setPermission('echo', 'ask');
    assert.equal((await approving.executor.execute(call('echo', { text: 'ok' }))).content, 'ok');
    assert.deepEqual(asked, ['echo']);
  });

  it('cancels running tools when the request is cancelled', async () => {
    const controller = new AbortController();
    const registry = new ToolRegistry().register({ ...slow, timeoutMs: 10_000 });
    const executor = new ToolExecutor(registry, { env, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    assert.equal((await executor.execute(call('slow', {}))).content, 'Error: slow was cancelled');
  });

  it('hands the tools the workspace of the owner the run serves', async () => {
    const where = defineTool({
      name: 'where',
      description: 'Says which workspace it sees.',
      inputSchema: z.object({}),
      execute: async (_input, context) => context.env.workspaceDir,
    });
    const registry = new ToolRegistry().register(where);
    const owned = createToolEnvironment({
      dataDir: '/tmp/yeoul-unused',
      workspaceOf: (owner) => (owner.startsWith('jwt:') ? `/tmp/own/${owner.length}` : '/tmp/all'),
    });
    const seen = async (owner?: string) =>
      (
        await new ToolExecutor(registry, {
          env: owned,
          ...(owner === undefined ? {} : { owner }),
        }).execute(call('where', {}))
      ).content;
    assert.equal(await seen('jwt:alice'), '/tmp/own/9');
    assert.equal(await seen('anonymous'), '/tmp/all');
    assert.equal(await seen(), owned.workspaceDir);
  });
});
