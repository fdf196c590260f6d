import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createDefaultTools } from './default-tools.ts';
import { createToolEnvironment } from './environment.ts';
import { ToolExecutor } from './tool-executor.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'yeoul-tools-'));
const tools = createDefaultTools();
after(async () => {
  await tools.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('default tools', () => {
  it('registers the built-in tools under their fixed names', () => {
    const env = createToolEnvironment({
      dataDir,
      keys: { tavily: 'key' },
      knowledge: { search: async () => [] },
    });
    assert.deepEqual(
      tools.registry.describe(env).map((tool) => tool.name),
      [
        'calculator',
        'get_current_datetime',
        'get_weather',
        'search_wikipedia',
        'web_search',
        'python_repl',
        'read_file',
        'write_file',
        'list_files',
        'sql_query',
        'search_knowledge',
      ],
    );
    for (const tool of tools.registry.describe(env)) {
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      assert.ok(tool.description.length > 20, tool.name);
    }
  });

  it('leaves out web search without a Tavily key and knowledge search without a knowledge base', () => {
    const names = tools.registry
      .describe(createToolEnvironment({ dataDir }))
      .map((tool) => tool.name);
    assert.ok(!names.includes('web_search'));
    assert.ok(!names.includes('search_knowledge'));
    assert.equal(names.length, 9);
  });

  it('answers offline: calculator, date and the demo database', async () => {
    const env = createToolEnvironment({ dataDir, now: () => new Date('2026-11-22T03:04:05Z') });
    const executor = new ToolExecutor(tools.registry, { env });
    const product = await executor.execute({
      id: '1',
      name: 'calculator',
      args: { expression: '123 * 456' },
    });
    assert.equal(product.content, '123 * 456 = 56088');
    const error = await executor.execute({
      id: '2',
      name: 'calculator',
      args: { expression: 'abc' },
    });
    assert.equal(error.isError, true);
    assert.match(error.content, /^Error: /);
    const date = await executor.execute({ id: '3', name: 'get_current_datetime', args: {} });
    assert.match(date.content, /2026-11-22/);
    const budget = await executor.execute({
      id: '4',
      name: 'sql_query',
      args: {
        query:
          'SELECT t.name, b.amount FROM budgets b JOIN teams t ON t.id = b.team_id WHERE b.year = 2024 AND b.amount = 100000000',
      },
    });
    assert.equal(budget.isError, false, budget.content);
    assert.match(budget.content, /100000000/);
  });
});
