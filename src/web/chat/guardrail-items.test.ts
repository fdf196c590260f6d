import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoredMessage } from '../api/types.ts';
import {
  applyEvent,
  type ChatItem,
  guardrailRecord,
  startTurn,
  withBlockedUsers,
} from './chat-items.ts';
import { itemsFromMessages } from './items-from-messages.ts';

const cardBlock = { name: 'pii', stage: 'input', action: 'block', reason: 'card' } as const;
const refusal = '카드 번호가 있어 이 메시지는 처리하지 않았습니다.';

describe('guardrails in a turn', () => {
  it('shows an input block: the guardrail acted, the refusal is the answer, nothing streamed', () => {
    let turn = startTurn('내 카드는 4111 1111 1111 1111');
    turn = applyEvent(turn, 'guardrail', cardBlock, 0);
    turn = applyEvent(
      turn,
      'done',
      {
        response: refusal,
        status: 'blocked',
        guardrail: { name: 'pii', stage: 'input', reason: 'card' },
        guardrails: [cardBlock],
        toolsUsed: [],
        usage: { llmCalls: 0, inputTokens: 0, outputTokens: 0 },
      },
      1,
    );
    assert.equal(turn.running, false);
    assert.equal(turn.status, 'blocked');
    assert.equal(turn.text, refusal);
    assert.deepEqual(turn.guardrails, [cardBlock]);
    assert.deepEqual(turn.guardrail, { name: 'pii', stage: 'input', reason: 'card' });
  });

  it('replaces the tokens already shown of a blocked answer by the refusal', () => {
    let turn = startTurn('q');
    turn = applyEvent(turn, 'token', { text: '연락처는 ' }, 0);
    const outputBlock = { name: 'pii', stage: 'output', action: 'block', reason: 'card' };
    turn = applyEvent(turn, 'guardrail', outputBlock, 1);
    assert.equal(turn.text, '', 'what was shown of the answer goes at once');
    turn = applyEvent(
      turn,
      'done',
      { response: 'Sorry, I cannot show that.', status: 'blocked', guardrail: outputBlock },
      2,
    );
    assert.equal(turn.text, 'Sorry, I cannot show that.');
    assert.equal(turn.guardrails.length, 1);
  });

  it('keeps a redaction or a warning as a note, and the answer as it streamed', () => {
    let turn = startTurn('q');
    const redaction = { name: 'pii', stage: 'output', action: 'redact', reason: 'email' };
    const toolWarning = {
      name: 'promptInjection',
      stage: 'tools',
      action: 'warn',
      reason: 'override',
      tool: 'web_search',
    };
    turn = applyEvent(turn, 'token', { text: 'mail [EMAIL]' }, 0);
    turn = applyEvent(turn, 'guardrail', redaction, 1);
    turn = applyEvent(turn, 'guardrail', toolWarning, 2);
    turn = applyEvent(
      turn,
      'done',
      { response: 'mail [EMAIL]', status: 'published', guardrails: [redaction, toolWarning] },
      3,
    );
    assert.equal(turn.text, 'mail [EMAIL]');
    assert.deepEqual(
      turn.guardrails,
      [redaction, toolWarning],
      'once each, though done lists them',
    );
    assert.equal(turn.guardrail, undefined);
  });

  it('takes what acted from done when no guardrail event came', () => {
    const turn = applyEvent(
      startTurn('q'),
      'done',
      { response: 'no', status: 'blocked', guardrails: [cardBlock] },
      0,
    );
    assert.deepEqual(turn.guardrails, [cardBlock]);
  });

  it('reads a guardrail record defensively, as text', () => {
    assert.deepEqual(guardrailRecord({ name: 'x', stage: 'weird', reason: '<b>hi</b>' }), {
      name: 'x',
      stage: 'input',
      action: 'block',
      reason: '<b>hi</b>',
    });
    assert.deepEqual(guardrailRecord(null), {
      name: '',
      stage: 'input',
      action: 'block',
      reason: '',
    });
  });
});

describe('withBlockedUsers', () => {
  it('marks the user message of a blocked turn, and leaves the list alone otherwise', () => {
    const user = (text: string): ChatItem => ({ kind: 'user', key: text, text });
    const answered = { ...startTurn('a'), running: false, status: 'published' as const };
    const items: ChatItem[] = [user('a'), answered];
    assert.equal(withBlockedUsers(items), items);
    const blocked = { ...startTurn('b'), running: false, status: 'blocked' as const };
    const marked = withBlockedUsers([...items, user('b'), blocked]);
    assert.deepEqual(
      marked.map((item) => (item.kind === 'user' ? Boolean(item.blocked) : item.status)),
      [false, 'published', true, 'blocked'],
    );
  });
});

describe('itemsFromMessages with blocked turns', () => {
  it('marks a blocked message and its refusal after a reload', () => {
    const items = itemsFromMessages(
      [
        { id: 'u1', role: 'user', content: '내 카드는 [CARD]', blocked: true },
        { role: 'assistant', content: refusal, blocked: true },
        { id: 'u2', role: 'user', content: '안녕' },
        { role: 'assistant', content: '안녕하세요' },
      ] as StoredMessage[],
      [],
    );
    assert.deepEqual(
      items.map((item) =>
        item.kind === 'user' ? `user ${Boolean(item.blocked)}` : `answer ${item.status}`,
      ),
      ['user true', 'answer blocked', 'user false', 'answer undefined'],
    );
  });

  it('marks the question of an answer blocked on output, though the question was not', () => {
    const items = itemsFromMessages(
      [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'Sorry.', blocked: true },
      ] as StoredMessage[],
      [],
    );
    assert.equal(items[0]?.kind === 'user' && items[0].blocked, true);
  });
});
