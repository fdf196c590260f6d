import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../../models/index.ts';
import { defaultMemorySettings } from './memory-settings.ts';
import { planSummary } from './plan-summary.ts';

const talk = (count: number): ChatMessage[] =>
  Array.from({ length: count }, (_, index) => ({
    id: `m${index}`,
    role: index % 2 === 0 ? 'user' : 'assistant',
    content: `message ${index}`,
  }));

describe('memory plan', () => {
  it('waits until the conversation reaches 10 messages', () => {
    assert.equal(planSummary(talk(9), defaultMemorySettings), undefined);
  });

  it('summarises the older messages and keeps the last 5', () => {
    const plan = planSummary(talk(10), defaultMemorySettings);
    assert.deepEqual(
      plan?.old.map((message) => message.id),
      ['m0', 'm1', 'm2', 'm3', 'm4'],
    );
    assert.equal(plan?.recent.length, 5);
  });

  it('never keeps a tool result without the call it answers', () => {
    const messages: ChatMessage[] = [
      ...talk(4),
      { id: 'u', role: 'user', content: 'calc' },
      {
        id: 'c',
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 't1', name: 'calculator', args: {} }],
      },
      { id: 'r', role: 'tool', toolCallId: 't1', name: 'calculator', content: '2' },
      { id: 'a', role: 'assistant', content: 'two' },
      ...talk(2).map((message) => ({ ...message, id: `x${message.id}` })),
    ];
    const plan = planSummary(messages, { ...defaultMemorySettings, keepRecent: 4 });
    assert.equal(plan?.recent[0]?.id, 'c');
    assert.deepEqual(
      plan?.recent.map((message) => message.id),
      ['c', 'r', 'a', 'xm0', 'xm1'],
    );
  });
});
