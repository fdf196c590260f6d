import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InputTooLongError } from './errors/input-too-long-error.ts';
import {
  countTokens,
  countTokensOver,
  fitToBudget,
  messageTokens,
  tokenBound,
  truncateToTokens,
} from './token-budget.ts';
import type { ChatMessage } from './types.ts';

const filler = (index: number) =>
  `old message ${index}: ${'lorem ipsum dolor sit amet '.repeat(4)}`;

function conversation(turns: number): ChatMessage[] {
  return Array.from({ length: turns }, (_, index) => ({
    role: index % 2 === 0 ? 'user' : 'assistant',
    content: filler(index),
  }));
}

describe('token budget', () => {
  it('counts Korean and English text', () => {
    assert.ok(countTokens('안녕하세요, 철수입니다') > 0);
    assert.ok(countTokens('hello world') >= 2);
    assert.equal(countTokens(''), 0);
  });

  it('keeps everything that fits', () => {
    const messages = conversation(4);
    const fitted = fitToBudget({ messages, maxInputTokens: 4000 });
    assert.deepEqual(fitted.messages, messages);
    assert.equal(fitted.dropped, 0);
  });

  it('bounds every count by the UTF-8 length, which a fitting conversation is measured by', () => {
    for (const text of ['안녕하세요, 철수입니다', 'hello world', '😀'.repeat(40), 'x'.repeat(500)])
      assert.ok(countTokens(text) <= tokenBound(text), text);
    const system = '당신은 여울입니다. '.repeat(10);
    const messages = [
      ...conversation(6),
      {
        role: 'assistant' as const,
        content: '',
        toolCalls: [{ id: 'c1', name: 'calculator', args: { expression: '123 * 456' } }],
      },
      { role: 'tool' as const, content: '56088', toolCallId: 'c1' },
    ];
    const fitted = fitToBudget({ system, messages, maxInputTokens: 100_000 });
    assert.deepEqual(fitted.messages, messages);
    assert.equal(fitted.dropped, 0);
    // The count read later is the exact one the tight path computes.
    const exact = countTokens(system) + 4 + messages.reduce((sum, m) => sum + messageTokens(m), 0);
    assert.equal(fitted.tokenCount, exact);
  });

  it('counts exactly only a text that may exceed the limit by its bytes', () => {
    assert.equal(countTokensOver('안녕하세요', 15), undefined); // 15 bytes: not counted
    assert.equal(countTokensOver('안녕하세요', 1), countTokens('안녕하세요'));
    assert.equal(countTokensOver('hello world hello world', 10), undefined); // 4 tokens
    assert.equal(truncateToTokens('짧은 글', 100), '짧은 글');
  });

  it('counts a special token typed in a message as ordinary text', () => {
    const text = 'ignore this <|endoftext|> and go on';
    assert.ok(countTokens(text) > 5);
    assert.ok(countTokens(text) <= tokenBound(text));
    assert.equal(truncateToTokens(text, 3).length < text.length, true);
  });

  it('drops the oldest messages first, never the system prompt budget or the current message', () => {
    const messages = [...conversation(40), { role: 'user' as const, content: 'current question' }];
    const system = 'You are Yeoul. '.repeat(20);
    const fitted = fitToBudget({ system, messages, maxInputTokens: 500 });
    assert.ok(fitted.dropped > 0);
    assert.ok(fitted.tokenCount <= 500);
    assert.equal(fitted.messages.at(-1)?.content, 'current question');
    assert.deepEqual(fitted.messages, messages.slice(fitted.dropped));
  });

  it('never keeps a tool result without the call that asked for it', () => {
    const call: ChatMessage = {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'calculator', args: { expression: '1+1'.repeat(40) } }],
    };
    const result: ChatMessage = {
      role: 'tool',
      toolCallId: 'c1',
      name: 'calculator',
      content: '2 '.repeat(60),
    };
    const messages: ChatMessage[] = [
      { role: 'user', content: 'first' },
      call,
      result,
      { role: 'assistant', content: 'done' },
      { role: 'user', content: 'now' },
    ];
    const budget =
      messageTokens(messages[3] as ChatMessage) +
      messageTokens(messages[4] as ChatMessage) +
      messageTokens(result) +
      2;
    const fitted = fitToBudget({ messages, maxInputTokens: budget });
    assert.ok(!fitted.messages.includes(result) || fitted.messages.includes(call));
    assert.equal(fitted.messages.filter((message) => message.role === 'tool').length, 0);
  });

  it('shortens tool results of the current turn rather than failing', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'read the file' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'r', name: 'read_file', args: { path: 'a.txt' } }],
      },
      { role: 'tool', toolCallId: 'r', name: 'read_file', content: 'data '.repeat(3000) },
    ];
    const fitted = fitToBudget({ messages, maxInputTokens: 1000 });
    assert.ok(fitted.tokenCount <= 1000);
    assert.match(fitted.messages[2]?.content ?? '', /…\[cut\]$/);
    assert.equal(fitted.messages[0]?.content, 'read the file');
  });

  it('refuses a single user message over the limit with its token count', () => {
    assert.throws(
      () =>
        fitToBudget({
          messages: [{ role: 'user', content: '토큰 '.repeat(3000) }],
          maxInputTokens: 4000,
        }),
      (error: unknown) =>
        error instanceof InputTooLongError &&
        error.code === 'input_too_long' &&
        error.tokenCount > 4000 &&
        error.limit === 4000,
    );
  });
});
