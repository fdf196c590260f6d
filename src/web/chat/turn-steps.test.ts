import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HistoryStep } from '../api/types.ts';
import { findTurn, groupTurns, inspectorRows, turnUsage } from './turn-steps.ts';

const usage = (llmCalls: number, inputTokens: number, outputTokens: number) => ({
  usage: { llmCalls, inputTokens, outputTokens },
});

const steps: HistoryStep[] = [
  {
    runId: 'r1',
    node: 'input',
    kind: 'input',
    update: { messages: { id: 'u1', role: 'user', content: 'first' } },
    at: '2026-01-01T00:00:00.000Z',
  },
  {
    runId: 'r1',
    node: 'router',
    kind: 'node',
    update: { route: 'agent' },
    at: '2026-01-01T00:00:00.010Z',
  },
  {
    runId: 'r1',
    node: 'agent',
    kind: 'node',
    update: usage(1, 100, 20),
    at: '2026-01-01T00:00:00.110Z',
  },
  {
    runId: 'r2',
    node: 'input',
    kind: 'input',
    update: { messages: { id: 'u2', role: 'user', content: 'second' } },
    at: '2026-01-01T00:01:00.000Z',
  },
  {
    runId: 'r2',
    node: 'agent',
    kind: 'node',
    update: usage(1, 50, 5),
    at: '2026-01-01T00:01:00.050Z',
  },
  {
    runId: 'r2',
    node: 'interrupt',
    kind: 'interrupt',
    update: null,
    at: '2026-01-01T00:01:00.060Z',
  },
  { runId: 'r3', node: 'resume', kind: 'resume', update: null, at: '2026-01-01T00:02:00.000Z' },
  {
    runId: 'r3',
    node: 'agent',
    kind: 'node',
    update: usage(1, 70, 9),
    at: '2026-01-01T00:02:00.100Z',
  },
];

describe('turn steps', () => {
  it('groups runs into turns: a run without a user message resumes the turn before', () => {
    const turns = groupTurns(steps);
    assert.deepEqual(
      turns.map((turn) => [turn.userText, turn.runIds]),
      [
        ['first', ['r1']],
        ['second', ['r2', 'r3']],
      ],
    );
  });

  it('finds a turn by message id, by text, or by its place from the end', () => {
    const turns = groupTurns(steps);
    assert.equal(findTurn(turns, { userMessageId: 'u1', fromEnd: 0 })?.userText, 'first');
    assert.equal(findTurn(turns, { userText: 'second', fromEnd: 1 })?.userText, 'second');
    assert.equal(findTurn(turns, { userText: 'unknown', fromEnd: 1 })?.userText, 'first');
  });

  it('gives each step its time since the one before and its own LLM calls and tokens', () => {
    const [first, second] = groupTurns(steps);
    const rows = inspectorRows(first as NonNullable<typeof first>);
    assert.deepEqual(
      rows.map((row) => [row.node, row.kind, row.durationMs, row.usage?.inputTokens]),
      [
        [null, 'input', 0, undefined],
        ['router', 'node', 10, undefined],
        ['agent', 'node', 100, 100],
      ],
    );
    assert.deepEqual(turnUsage(second as NonNullable<typeof second>), {
      llmCalls: 2,
      inputTokens: 120,
      outputTokens: 14,
    });
  });
});
