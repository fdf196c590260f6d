import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentResponse } from '../agents/index.ts';
import { createEventPrinter } from './event-printer.ts';

function payload(response: string): AgentResponse {
  return {
    response,
    sessionId: 's',
    runId: 'r',
    toolsUsed: [],
    executionTime: 0,
    status: 'published',
    steps: [],
    usage: { llmCalls: 1, inputTokens: 1, outputTokens: 1 },
  };
}

function capture() {
  const out = { text: '', write: (chunk: string) => (out.text += chunk) };
  return out;
}

describe('createEventPrinter', () => {
  it('streams tokens and puts tool calls and results on lines of their own', () => {
    const out = capture();
    const printer = createEventPrinter(out);
    printer.onEvent('step', { node: 'agent', phase: 'start' });
    printer.onEvent('tool-call', { id: '1', name: 'calculator', args: { expression: '2 * 3' } });
    printer.onEvent('tool-result', { id: '1', name: 'calculator', result: '2 * 3 = 6' });
    printer.onEvent('step', { node: 'agent', phase: 'start' });
    printer.onEvent('token', { text: '2 * 3 = ' });
    printer.onEvent('token', { text: '6입니다.' });
    printer.finish(payload('2 * 3 = 6입니다.'));
    assert.equal(
      out.text,
      '  → calculator {"expression":"2 * 3"}\n  ← calculator: 2 * 3 = 6\n2 * 3 = 6입니다.\n',
    );
  });

  it('prints the final answer when nothing was streamed or the answer changed', () => {
    const out = capture();
    const printer = createEventPrinter(out);
    printer.finish(payload('quiet answer'));
    printer.onEvent('token', { text: 'draft' });
    printer.onEvent('step', { node: 'finalize', phase: 'start' });
    printer.finish(payload('⚠️ draft'));
    assert.equal(out.text, 'quiet answer\ndraft\n⚠️ draft\n');
  });
});
