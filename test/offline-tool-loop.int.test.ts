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
async function ask(
  question: string,
  system?: string,
): Promise<{ answer: string; toolsUsed: string[] }> {
  const model = resolveModel(readModelConfig({}));
  const env = createToolEnvironment({ dataDir, now: () => new Date('2026-11-22T03:04:05Z') });
  const executor = new ToolExecutor(tools.registry, { env });
  const described = tools.registry.describe(env);
  const messages: ChatMessage[] = [{ role: 'user', content: question }];
  const toolsUsed: string[] = [];
  for (let turn = 0; turn < 5; turn += 1) {
    const result = await model.call({ ...(system ? { system } : {}), messages, tools: described });
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

  it('RAG + tool: the budget from the documents, changed by the percentage through the calculator', async () => {
    const system =
      '당신은 회사 도우미입니다.\n\n[참고 문서]\n[1] 팀 예산 — 예산\n2024년 팀 예산: 1억원. 예산은 분기마다 검토합니다.';
    const { answer, toolsUsed } = await ask('팀 예산이 얼마야? 20% 증가하면?', system);
    assert.deepEqual(toolsUsed, ['calculator']);
    assert.equal(
      answer,
      '참고 문서에 따르면: 2024년 팀 예산: 1억원. 예산은 분기마다 검토합니다.\n1억원에서 20% 증가하면 120,000,000원(1.2억원)입니다.',
    );
    const cut = await ask('팀 예산이 15% 삭감되면 얼마야?', system.replace('1억원', '1억 5천만원'));
    assert.match(cut.answer, /1억 5천만원에서 15% 감소하면 127,500,000원\(1\.275억원\)입니다\.$/);
    const english = await ask(
      'What is the travel budget? What if we cut it by 10%?',
      '[reference documents]\n[1] Travel — budget\nThe travel budget is $12,000 a year.',
    );
    assert.deepEqual(english.toolsUsed, ['calculator']);
    assert.match(english.answer, /Decreased by 10%, \$12,000 becomes \$10,800\.$/);
  });

  it('tells the time through the date/time tool', async () => {
    const { answer, toolsUsed } = await ask('지금 몇 시야?');
    assert.deepEqual(toolsUsed, ['get_current_datetime']);
    assert.match(answer, /2026년 11월 22일 일요일/);
  });
});
