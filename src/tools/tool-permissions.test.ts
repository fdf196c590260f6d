import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { defineTool } from './define-tool.ts';
import { ToolRegistry } from './registry.ts';
import { applyToolPermissions } from './tool-permissions.ts';

const tool = (name: string, permission: 'allow' | 'ask' = 'allow') =>
  defineTool({
    name,
    description: name,
    inputSchema: z.object({}),
    permission,
    execute: async () => 'ok',
  });

describe('YEOUL_TOOL_PERMISSIONS', () => {
  it('overrides the permissions it names and leaves the rest', () => {
    const registry = new ToolRegistry()
      .register(tool('write_file', 'ask'))
      .register(tool('calculator'));
    assert.deepEqual(applyToolPermissions(registry, 'write_file:allow, calculator : deny'), []);
    assert.equal(registry.permissionOf('write_file'), 'allow');
    assert.equal(registry.permissionOf('calculator'), 'deny');
    assert.deepEqual(applyToolPermissions(registry, undefined), []);
  });

  it('refuses unknown tools, bad permissions and malformed entries, all listed, and applies none', () => {
    const registry = new ToolRegistry()
      .register(tool('write_file', 'ask'))
      .register(tool('calculator'));
    const problems = applyToolPermissions(
      registry,
      'write_file:allow,nope:ask,calculator:maybe,oops',
    );
    assert.equal(problems.length, 3);
    assert.match(
      problems[0] as string,
      /there is no tool "nope" \(tools: write_file, calculator\)/,
    );
    assert.match(problems[1] as string, /"maybe" for calculator is not one of allow, ask, deny/);
    assert.match(problems[2] as string, /"oops" is not name:allow\|ask\|deny/);
    assert.equal(registry.permissionOf('write_file'), 'ask', 'a bad setting changes nothing');
  });
});
