import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultRunOptions, optionsForSession } from './saved-state.ts';

describe('optionsForSession', () => {
  const chosen = (graph: string) => ({ ...defaultRunOptions, evaluate: true, graph });

  it('keeps the chosen options when the session’s graph is unknown (a session of this page)', () => {
    assert.deepEqual(optionsForSession(chosen('shout')), chosen('shout'));
  });

  it('runs a user graph’s session on that graph, whatever was chosen', () => {
    assert.deepEqual(optionsForSession(chosen('react'), 'shout'), chosen('shout'));
  });

  it('keeps a built-in choice on a built-in session, and falls back to chat from a user graph', () => {
    assert.deepEqual(optionsForSession(chosen('ops'), 'chat'), chosen('ops'));
    assert.deepEqual(optionsForSession(chosen('shout'), 'chat'), chosen('chat'));
  });
});
