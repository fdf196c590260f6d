import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import type { AgentDependencies, KitLogger } from '../agents/index.ts';
import { END, MemoryCheckpointer, messages, replace, START, StateGraph } from '../graph/index.ts';
import { deny, PlaceholderVault, pii, promptInjection } from '../guardrails/index.ts';
import type { ModelVariables } from '../models/index.ts';
import { defineTool, ToolRegistry } from '../tools/index.ts';
import { type AppBase, buildApp } from './build-app.ts';
import type { YeoulConfig } from './types.ts';

const logger = { info() {}, warn() {}, error() {}, debug() {} } as unknown as KitLogger;

function base(envGuardrails?: string[] | 'off'): AppBase {
  return {
    deps: {
      tools: new ToolRegistry(),
      model: {},
      toolEnvironment: {},
    } as unknown as AgentDependencies,
    checkpointer: new MemoryCheckpointer(),
    env: {} as ModelVariables,
    logger,
    envPermissions: [],
    mcpPrefixes: [],
    ...(envGuardrails === undefined ? {} : { envGuardrails }),
  };
}

const echo = (state: { messages: unknown[] }) => ({ messages: state.messages.slice(-1) });
const chatGraph = () =>
  new StateGraph({ messages: messages() })
    .addNode('echo', echo)
    .addEdge(START, 'echo')
    .addEdge('echo', END);
const countGraph = () =>
  new StateGraph({ count: replace<number>(0) })
    .addNode('one', () => ({ count: 1 }))
    .addEdge(START, 'one')
    .addEdge('one', END);

const orderStatus = defineTool({
  name: 'order_status',
  description: 'An order’s state',
  inputSchema: z.object({ id: z.string() }),
  execute: async ({ id }) => ({ id, state: 'shipped' }),
});

describe('buildApp: guardrails', () => {
  it('compiles the config’s guardrails for the built-in agents and the config’s chat graphs', async () => {
    const config: YeoulConfig = {
      tools: [orderStatus],
      graphs: { support: chatGraph(), counter: countGraph() },
      guardrails: {
        input: [pii(), promptInjection()],
        graphs: { support: { input: [deny({ words: ['기밀'] })] } },
      },
    };
    const built = await buildApp(config, base());
    assert.ok(built.ok, built.ok ? '' : built.problems.join('\n'));
    const described = built.app.guardrails.describe();
    assert.deepEqual(Object.keys(described).sort(), ['chat', 'ops', 'react', 'support']);
    assert.deepEqual(described.chat?.input, ['pii', 'promptInjection']);
    assert.deepEqual(described.support?.input, ['deny']);
  });

  it('restores for the config’s own tools by default', async () => {
    const built = await buildApp({ tools: [orderStatus], guardrails: { input: [pii()] } }, base());
    assert.ok(built.ok);
    const vault = new PlaceholderVault([
      { placeholder: '[EMAIL_1]', kind: 'email', value: 'a@x.com' },
    ]);
    const run = { sessionId: 's', graph: 'chat', signal: new AbortController().signal, vault };
    const outcome = await built.app.guardrails
      .forGraph('chat')
      .checkToolArgs({ tool: 'order_status', args: { id: '[EMAIL_1]' } }, run);
    assert.deepEqual(outcome.args, { id: 'a@x.com' });
  });

  it('joins the guardrails’ problems, with their paths, to the others', async () => {
    const built = await buildApp(
      {
        graphs: { counter: countGraph() },
        permissions: { nope: 'allow' },
        guardrails: { output: ['pi' as never, promptInjection()], graphs: { counter: false } },
      },
      base(),
    );
    assert.equal(built.ok, false);
    assert.deepEqual(built.ok ? [] : built.problems, [
      'permissions.nope: there is no tool "nope" (tools: )',
      'guardrails.output[0]: unknown guardrail "pi"',
      'guardrails.output[1]: promptInjection works on input and tools only',
      'guardrails.graphs.counter: no chat graph "counter"',
    ]);
  });

  it('takes YEOUL_GUARDRAILS from the base, with or without a config', async () => {
    const listed = await buildApp(undefined, base(['pii']));
    assert.ok(listed.ok);
    assert.deepEqual(listed.app.guardrails.describe().chat, {
      input: ['pii'],
      output: ['pii'],
      tools: ['pii'],
    });
    const off = await buildApp({ guardrails: { input: [pii()] } }, base('off'));
    assert.ok(off.ok);
    assert.equal(off.app.guardrails.forGraph('chat').empty, true);
  });
});
