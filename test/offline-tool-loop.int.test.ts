import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type ChatMessage, readModelConfig, resolveModel } from '../src/models/index.ts';
import { createDefaultTools, createToolEnvironment, ToolExecutor } from '../src/tools/index.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'yeoul-loop-'));
const tools = createDefaultTools();
after(async () => {
  await tools.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A minimal model ⇄ tools loop (what the agent graphs do), on the offline model. */
async function ask(question: string): Promise<{ answer: string; toolsUsed: string[] }> {
  const model = resolveModel(readModelConfig({}));
  const env = createToolEnvironment({ dataDir, now: () => new Date('2026-11-22T03:04:05Z') });
  const executor = new ToolExecutor(tools.registry, { env });
  const described = tools.registry.describe(env);
  const messages: ChatMessage[] = [{ role: 'user', content: question }];
  const toolsUsed: string[] = [];
  for (let turn = 0; turn < 5; turn += 1) {
    const result = await model.call({ messages, tools: described });
    if (result.toolCalls.length === 0) return { answer: result.text, toolsUsed };
    messages.push({ role: 'assistant', content: result.text, toolCalls: result.toolCalls });
    for (const call of result.toolCalls) {
      const outcome = await executor.execute(call);
      toolsUsed.push(call.name);
      messages.push({
        role: 'tool',
        toolCallId: call.id,
        name: call.name,
        content: outcome.content,
        isError: outcome.isError,
      });
    }
  }
  throw new Error('the loop did not end');
}

describe('offline model with the real tools', () => {
  it('calculates: "123 * 456 계산해줘" → 56,088', async () => {
    assert.deepEqual(await ask('123 * 456 계산해줘'), {
      answer: '123 * 456 = 56,088입니다.',
      toolsUsed: ['calculator'],
    });
  });

  it('apologises, naming the problem, when the calculator fails', async () => {
    const { answer, toolsUsed } = await ask('계산해줘: abc');
    assert.deepEqual(toolsUsed, ['calculator']);
    assert.match(answer, /^죄송합니다\. calculator 도구를 실행하는 중 문제가 생겼습니다: /);
  });

  it('tells the time through the date/time tool', async () => {
    const { answer, toolsUsed } = await ask('지금 몇 시야?');
    assert.deepEqual(toolsUsed, ['get_current_datetime']);
    assert.match(answer, /2026-11-22/);
  });
});
