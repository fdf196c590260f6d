import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { append, increment, reducer, replace } from './channels.ts';
import { messages, removeAllMessages, removeMessage } from './messages.ts';

interface Message {
  id?: string;
  content: string;
}

describe('channels', () => {
  it('replace keeps the last value written', () => {
    const channel = replace<string | null>(null);
    assert.equal(channel.initial(), null);
    assert.equal(channel.reduce('a', 'b'), 'b');
  });

  it('append adds one item or a list of items without touching the old list', () => {
    const channel = append<number>();
    const start = channel.initial();
    const one = channel.reduce(start, 1);
    const three = channel.reduce(one, [2, 3]);
    assert.deepEqual(start, []);
    assert.deepEqual(one, [1]);
    assert.deepEqual(three, [1, 2, 3]);
  });

  it('increment adds to a counter from its starting value', () => {
    const channel = increment(2);
    assert.equal(channel.reduce(channel.reduce(channel.initial(), 1), 3), 6);
  });

  it('a custom reducer decides how updates combine', () => {
    const channel = reducer<Set<string>, string>(
      (current, tag) => new Set([...current, tag]),
      () => new Set(),
    );
    const tags = channel.reduce(channel.reduce(channel.initial(), 'a'), 'a');
    assert.deepEqual([...tags], ['a']);
  });
});

describe('messages channel', () => {
  const channel = messages<Message>();
  const prepared = (update: Parameters<typeof channel.reduce>[1]) =>
    channel.prepare?.(update) ?? update;

  it('gives every message without an id a fresh one before committing', () => {
    const update = prepared([{ content: 'a' }, { id: 'keep', content: 'b' }]) as Message[];
    assert.equal(typeof update[0]?.id, 'string');
    assert.notEqual(update[0]?.id, (prepared({ content: 'a' }) as Message[])[0]?.id);
    assert.equal(update[1]?.id, 'keep');
  });

  it('appends new messages in order', () => {
    const first = channel.reduce([], prepared({ id: '1', content: 'a' }));
    const second = channel.reduce(
      first,
      prepared([
        { id: '2', content: 'b' },
        { id: '3', content: 'c' },
      ]),
    );
    assert.deepEqual(
      second.map((message) => message.id),
      ['1', '2', '3'],
    );
    assert.equal(first.length, 1);
  });

  it('replaces a message whose id is already there, in place', () => {
    const start = [
      { id: '1', content: 'a' },
      { id: '2', content: 'b' },
    ];
    const next = channel.reduce(start, { id: '1', content: 'edited' });
    assert.deepEqual(next, [
      { id: '1', content: 'edited' },
      { id: '2', content: 'b' },
    ]);
    assert.equal(start[0]?.content, 'a');
  });

  it('removes messages by id and can clear the list before adding', () => {
    const start = [
      { id: '1', content: 'a' },
      { id: '2', content: 'b' },
      { id: '3', content: 'c' },
    ];
    assert.deepEqual(
      channel.reduce(start, [removeMessage('1'), removeMessage('3')]).map((m) => m.id),
      ['2'],
    );
    assert.deepEqual(
      channel.reduce(start, [removeAllMessages(), { id: 's', content: 'summary' }]),
      [{ id: 's', content: 'summary' }],
    );
    assert.deepEqual(channel.reduce(start, removeMessage('missing')), start);
  });

  it('replays a prepared update to the same list', () => {
    const update = prepared([{ content: 'x' }, { content: 'y' }]);
    const replayedUpdate = JSON.parse(JSON.stringify(update));
    assert.deepEqual(channel.reduce([], update), channel.reduce([], replayedUpdate));
  });
});
