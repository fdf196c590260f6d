import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MemoryCheckpointer } from '../../graph/index.ts';
import { ChatModel } from '../../models/index.ts';
import { scriptedLanguageModel } from '../../testing/index.ts';
import { createDefaultTools, createToolEnvironment } from '../../tools/index.ts';
import { routerPrompt } from '../prompts.ts';
import { createAgentRunner } from './agent-runner.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-run-owner-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('whom a run serves', () => {
  it('hands the file tools the workspace of the request’s owner, else the session’s', async () => {
    mkdirSync(join(root, 'own'));
    mkdirSync(join(root, 'workspace'));
    writeFileSync(join(root, 'own', 'mine.txt'), 'mine');
    writeFileSync(join(root, 'workspace', 'shared.txt'), 'shared');
    const model = scriptedLanguageModel((options) => {
      const system = options.prompt.find((message) => message.role === 'system')?.content;
      if (String(system).includes(routerPrompt)) {
        return { object: { route: 'agent', reason: 'files' } };
      }
      if (options.prompt.at(-1)?.role === 'tool') return { text: 'listed' };
      return { toolCalls: [{ name: 'list_files', args: { path: '.' } }] };
    });
    const tools = createDefaultTools();
    const runner = createAgentRunner(
      {
        model: new ChatModel(model, { provider: 'compat', modelId: 'script' }),
        tools: tools.registry,
        toolEnvironment: createToolEnvironment({
          dataDir: root,
          workspaceOf: (owner) => join(root, owner.startsWith('jwt:') ? 'own' : 'workspace'),
        }),
      },
      new MemoryCheckpointer(),
      { ownerOfSession: async (sessionId) => (sessionId === 'hers' ? 'jwt:alice' : undefined) },
    );
    const listed = async (request: { owner?: string; sessionId?: string }) => {
      const results: string[] = [];
      await runner.invoke({
        message: 'what files are there?',
        ...request,
        onEvent: (name, data) => {
          if (name === 'tool-result') results.push(String((data as { result: unknown }).result));
        },
      });
      return results.join('\n');
    };
    try {
      assert.match(await listed({ owner: 'jwt:alice' }), /mine\.txt/);
      assert.doesNotMatch(await listed({ owner: 'jwt:alice' }), /shared\.txt/);
      assert.match(await listed({ owner: 'anonymous' }), /shared\.txt/);
      assert.match(await listed({}), /shared\.txt/);
      // A run whose request names no owner (one picked up after a crash) serves the session's.
      assert.match(await listed({ sessionId: 'hers' }), /mine\.txt/);
    } finally {
      await tools.close();
    }
  });
});
