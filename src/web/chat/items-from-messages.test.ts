import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoredMessage } from '../api/types.ts';
import { itemsFromMessages } from './items-from-messages.ts';

describe('itemsFromMessages', () => {
  it('gathers a stored turn into one assistant item with its tool cards', () => {
    const items = itemsFromMessages(
      [
        { id: 'u1', role: 'user', content: '123 * 456 계산해줘' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'c1', name: 'calculator', args: { expression: '123 * 456' } }],
        },
        { role: 'tool', toolCallId: 'c1', name: 'calculator', content: '56088' },
        { role: 'assistant', content: '123 * 456 = 56,088입니다.' },
        { role: 'user', content: 'thanks' },
      ] as StoredMessage[],
      [
        {
          id: 'i1',
          type: 'tool-approval',
          tool: 'write_file',
          args: {},
          createdAt: '2026-01-01T00:00:00.000Z',
        },
      ],
    );
    assert.deepEqual(
      items.map((item) => item.kind),
      ['user', 'assistant', 'user', 'assistant'],
    );
    const turn = items[1];
    assert.ok(turn?.kind === 'assistant');
    assert.equal(turn.text, '123 * 456 = 56,088입니다.');
    assert.equal(turn.userMessageId, 'u1');
    assert.deepEqual(
      turn.tools.map((tool) => [tool.name, tool.result, tool.error]),
      [['calculator', '56088', false]],
    );
    const pending = items[3];
    assert.ok(pending?.kind === 'assistant');
    assert.equal(pending.interrupts[0]?.id, 'i1');
  });
});
