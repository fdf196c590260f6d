import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultRunOptions, optionsForSession } from './saved-state.ts';

describe('optionsForSession', () => {
  const chosen = (graph?: string) => ({
    ...defaultRunOptions,
    evaluate: true,
    ...(graph === undefined ? {} : { graph }),
  });
  // The built-in agents as GET /api/graphs lists them.
  const builtins = ['chat', 'react', 'ops'];

  it('keeps the chosen options when the session’s graph is unknown (a session of this page)', () => {
    assert.deepEqual(optionsForSession(chosen('shout'), undefined, builtins), chosen('shout'));
  });

  it('runs a user graph’s session on that graph, whatever was chosen', () => {
    assert.deepEqual(optionsForSession(chosen('react'), 'shout', builtins), chosen('shout'));
    assert.deepEqual(optionsForSession(chosen(), 'shout', builtins), chosen('shout'));
  });

  it('keeps a built-in choice on a built-in session, and falls back to chat from a user graph', () => {
    assert.deepEqual(optionsForSession(chosen('ops'), 'chat', builtins), chosen('ops'));
    assert.deepEqual(optionsForSession(chosen('shout'), 'chat', builtins), chosen('chat'));
  });

  it('keeps the server’s default (no graph chosen) on a built-in session', () => {
    assert.deepEqual(optionsForSession(chosen(), 'chat', builtins), chosen());
  });
});
