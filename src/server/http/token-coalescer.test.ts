import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coalesceTokens } from './token-coalescer.ts';

describe('token coalescing', () => {
  it('sends the tokens of one turn of the event loop as one event, in order with the rest', async () => {
    const sent: Array<[string, unknown]> = [];
    const events = coalesceTokens((name, data) => sent.push([name, data]));
    events.emit('token', { text: '안녕' });
    events.emit('token', { text: '하세요' });
    assert.deepEqual(sent, [], 'nothing yet: more may come in this turn');
    events.emit('step', { node: 'agent', phase: 'end' });
    events.emit('token', { text: '!' });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(sent, [
      ['token', { text: '안녕하세요' }],
      ['step', { node: 'agent', phase: 'end' }],
      ['token', { text: '!' }],
    ]);
  });

  it('flushes what it holds before the run’s last event', () => {
    const sent: string[] = [];
    const events = coalesceTokens((name, data) =>
      sent.push(`${name}:${(data as { text?: string }).text ?? ''}`),
    );
    events.emit('token', { text: 'tail' });
    events.flush();
    assert.deepEqual(sent, ['token:tail']);
    events.flush();
    assert.deepEqual(sent, ['token:tail'], 'nothing twice');
  });
});
