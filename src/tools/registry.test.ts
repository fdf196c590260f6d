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
