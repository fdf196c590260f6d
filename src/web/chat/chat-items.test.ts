import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyEvent, startTurn } from './chat-items.ts';

describe('applyEvent', () => {
  it('keeps the graph run and super-step of each live step, ending the right one', () => {
    let turn = startTurn('split');
    const step = (node: string, phase: string, superstep: number, runId = 'r1') => ({
      node,
      phase,
      superstep,
      runId,
    });
    turn = applyEvent(turn, 'step', step('left', 'start', 2), 0);
    turn = applyEvent(turn, 'step', step('right', 'start', 2), 1);
    turn = applyEvent(turn, 'step', step('left', 'start', 1, 'inner'), 2);
    turn = applyEvent(turn, 'step', step('left', 'end', 2), 30);
    assert.deepEqual(turn.liveSteps, [
      { node: 'left', startedAt: 0, superstep: 'r1 2', endedAt: 30 },
      { node: 'right', startedAt: 1, superstep: 'r1 2' },
      { node: 'left', startedAt: 2, superstep: 'inner 1' },
    ]);
  });

  it('builds a turn from stream events: tokens, tool cards with durations, the final payload', () => {
    let turn = startTurn('123 * 456 계산해줘');
    turn = applyEvent(turn, 'step', { node: 'agent', phase: 'start' }, 0);
    turn = applyEvent(
      turn,
      'tool-call',
      { id: 'c1', name: 'calculator', args: { expression: '123 * 456' } },
      10,
    );
    turn = applyEvent(turn, 'tool-result', { id: 'c1', name: 'calculator', result: '56088' }, 40);
    turn = applyEvent(turn, 'token', { text: '123 * 456 = ' }, 50);
    turn = applyEvent(turn, 'token', { text: '56,088' }, 51);
    assert.equal(turn.text, '123 * 456 = 56,088');
    assert.deepEqual(turn.tools[0], {
      id: 'c1',
      name: 'calculator',
      args: { expression: '123 * 456' },
      startedAt: 10,
      result: '56088',
      error: false,
      durationMs: 30,
    });
    turn = applyEvent(
      turn,
      'done',
      {
        response: '123 * 456 = 56,088입니다.',
        status: 'published',
        sources: [],
        executionTime: 0.1,
        steps: [],
      },
      60,
    );
    assert.equal(turn.running, false);
    assert.equal(turn.text, '123 * 456 = 56,088입니다.');
    assert.equal(turn.sources, undefined);
  });

  it('prefers the server’s durationMs, and keeps errors with their codes', () => {
    let turn = startTurn('q');
    turn = applyEvent(turn, 'tool-call', { id: 'c1', name: 'web_search', args: {} }, 0);
    turn = applyEvent(
      turn,
      'tool-result',
      { id: 'c1', result: 'boom', error: true, durationMs: 7 },
      500,
    );
    assert.equal(turn.tools[0]?.durationMs, 7);
    assert.equal(turn.tools[0]?.error, true);
    turn = applyEvent(turn, 'error', { code: 'model_timeout', message: 'slow' }, 600);
    turn = applyEvent(
      turn,
      'done',
      { response: 'sorry', status: 'error', errorCode: 'model_timeout' },
      700,
    );
    assert.deepEqual(turn.errors, [{ code: 'model_timeout', message: 'slow' }]);
  });

  it('collects interrupts once, and not those already decided', () => {
    let turn = startTurn('q');
    const interrupt = { id: 'i1', type: 'tool-approval', tool: 'write_file', args: { path: 'a' } };
    turn = applyEvent(turn, 'interrupt', interrupt, 0);
    turn = applyEvent(
      turn,
      'done',
      { response: '', status: 'interrupted', interrupts: [interrupt] },
      1,
    );
    assert.equal(turn.interrupts.length, 1);
    turn = {
      ...turn,
      interrupts: [],
      decisions: [{ id: 'i1', tool: 'write_file', approve: true }],
    };
    turn = applyEvent(
      turn,
      'done',
      { response: '', status: 'interrupted', interrupts: [interrupt] },
      2,
    );
    assert.equal(turn.interrupts.length, 0);
  });

  it('starts the answer over when the ops loop regenerates it', () => {
    let turn = applyEvent(startTurn('q'), 'token', { text: 'first try' }, 0);
    turn = applyEvent(turn, 'step', { node: 'regenerate', phase: 'start' }, 1);
    turn = applyEvent(turn, 'token', { text: 'second' }, 2);
    assert.equal(turn.text, 'second');
  });
});
