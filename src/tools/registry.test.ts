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
