import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { defineTool } from './define-tool.ts';
import { ToolRegistry } from './registry.ts';

const toolNamed = (name: string, warmed: string[], fail = false) =>
  defineTool({
    name,
    description: `the ${name} tool`,
    inputSchema: z.object({}),
    execute: async () => 'ok',
    async warmUp() {
      if (fail) throw new Error(`${name} cannot start`);
      warmed.push(name);
    },
  });

describe('tool registry warm-up', () => {
  it('warms up the named tools only, and ignores names it does not know', async () => {
    const warmed: string[] = [];
    const registry = new ToolRegistry()
      .register(toolNamed('first', warmed))
      .register(toolNamed('second', warmed))
      .register(defineTool({ ...toolNamed('plain', warmed), warmUp: undefined }));
    await registry.warmUp(['second', 'plain', 'missing']);
    assert.deepEqual(warmed, ['second']);
  });

  it('reports a tool that cannot start', async () => {
    const registry = new ToolRegistry().register(toolNamed('broken', [], true));
    await assert.rejects(registry.warmUp(['broken']), /broken cannot start/);
  });
});

describe('tools that come and go', () => {
  it('unregisters a tool with its permission override, so the name can be registered again', () => {
    const registry = new ToolRegistry().register(toolNamed('mcp_tool', []));
    registry.setPermission('mcp_tool', 'deny');
    assert.equal(registry.unregister('mcp_tool'), true);
    assert.equal(registry.get('mcp_tool'), undefined);
    assert.equal(registry.unregister('mcp_tool'), false);
    registry.register(toolNamed('mcp_tool', []));
    assert.equal(registry.permissionOf('mcp_tool'), 'allow');
  });

  it('describes a tool by the JSON Schema it brings, and drops a removed tool from the descriptions', () => {
    const env = {} as Parameters<ToolRegistry['describe']>[0];
    const jsonSchema = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };
    const registry = new ToolRegistry().register(
      defineTool({ ...toolNamed('remote', []), inputJsonSchema: jsonSchema }),
    );
    assert.deepEqual(registry.describe(env)[0]?.inputSchema, jsonSchema);
    registry.unregister('remote');
    assert.deepEqual(registry.describe(env), []);
  });
});

describe('registry views: extend and only', () => {
  const env = {} as Parameters<ToolRegistry['describe']>[0];

  it('extends a registry with tools of its own, seeing the base’s tools as they come and go', () => {
    const base = new ToolRegistry().register(toolNamed('calculator', []));
    const extended = base.extend([toolNamed('order_status', [])]);
    assert.deepEqual(extended.names(), ['order_status', 'calculator']);
    assert.equal(base.get('order_status'), undefined);
    base.register(toolNamed('everything__echo', []));
    assert.deepEqual(
      extended.describe(env).map((tool) => tool.name),
      ['order_status', 'calculator', 'everything__echo'],
    );
    base.unregister('everything__echo');
    assert.deepEqual(
      extended.describe(env).map((tool) => tool.name),
      ['order_status', 'calculator'],
    );
  });

  it('refuses an extension tool named like a base tool', () => {
    const base = new ToolRegistry().register(toolNamed('calculator', []));
    assert.throws(() => base.extend([toolNamed('calculator', [])]), /registered already/);
  });

  it('keeps a permission set on the extension to the extension', () => {
    const base = new ToolRegistry().register(toolNamed('calculator', []));
    const extended = base.extend([]);
    extended.setPermission('calculator', 'ask');
    assert.equal(extended.permissionOf('calculator'), 'ask');
    assert.equal(base.permissionOf('calculator'), 'allow');
  });

  it('offers only the named tools, and none outside them', () => {
    const base = new ToolRegistry()
      .register(toolNamed('calculator', []))
      .register(toolNamed('python_repl', []));
    const view = base.extend([toolNamed('order_status', [])]).only(['order_status', 'calculator']);
    assert.deepEqual(view.names(), ['order_status', 'calculator']);
    assert.equal(view.get('python_repl'), undefined);
    assert.deepEqual(
      view.describe(env).map((tool) => tool.name),
      ['order_status', 'calculator'],
    );
  });
});
