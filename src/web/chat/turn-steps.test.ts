import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HistoryStep } from '../api/types.ts';
import {
  findTurn,
  forkPointBefore,
  groupTurns,
  guardrailsOf,
  inspectorRows,
  lines,
  superstepLines,
  turnUsage,
} from './turn-steps.ts';

const usage = (llmCalls: number, inputTokens: number, outputTokens: number) => ({
  usage: { llmCalls, inputTokens, outputTokens },
});

// Fixtures hold only the fields the console reads.
const steps = [
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
] as HistoryStep[];

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

  it('puts consecutive items with one key on a line; items without a key stand alone', () => {
    const keyed = ['a1', 'a2', 'b1', '-', '-', 'a3'];
    assert.deepEqual(
      lines(keyed, (item) => (item === '-' ? null : (item[0] as string))),
      [['a1', 'a2'], ['b1'], ['-'], ['-'], ['a3']],
    );
  });

  it('puts the tasks of one super-step on one line, each timed from the super-step start', () => {
    const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
    const fanOut = [
      { step: 0, superstep: 0, runId: 'r1', node: 'input', kind: 'input', update: null, at: at(0) },
      { step: 1, superstep: 1, runId: 'r1', node: 'plan', kind: 'node', update: null, at: at(5) },
      { step: 2, superstep: 2, runId: 'r1', node: 'left', kind: 'task', update: null, at: at(25) },
      { step: 3, superstep: 2, runId: 'r1', node: 'right', kind: 'node', update: null, at: at(40) },
      {
        step: 4,
        superstep: 3,
        runId: 'r1',
        node: 'answer',
        kind: 'node',
        update: null,
        at: at(41),
      },
    ] as HistoryStep[];

    const [turn] = groupTurns(fanOut);
    const lines = superstepLines(inspectorRows(turn as NonNullable<typeof turn>));
    assert.deepEqual(
      lines.map((line) => line.map((row) => `${row.node ?? row.kind} ${row.durationMs}`)),
      [['input 0'], ['plan 5'], ['left 20', 'right 35'], ['answer 1']],
    );
  });

  it('forks before the run a user message started: by id, by place, else by text', () => {
    const numbered = steps.map((step, index) => ({ ...step, step: index }));
    assert.equal(forkPointBefore(numbered, { userText: 'first', fromEnd: 1 }), -1);
    assert.equal(forkPointBefore(numbered, { userText: 'second', fromEnd: 0 }), 2);
    assert.equal(
      forkPointBefore(numbered, { userMessageId: 'u2', userText: 'edited away', fromEnd: 5 }),
      2,
    );
    assert.equal(forkPointBefore(numbered, { userText: 'first', fromEnd: 0 }), -1);
    assert.equal(forkPointBefore(numbered, { userText: 'never asked', fromEnd: 9 }), undefined);
    assert.equal(forkPointBefore(steps, { userText: 'first', fromEnd: 1 }), undefined);
  });

  it("leaves a subgraph's own steps out of turns and fork points", () => {
    const numbered = steps.map((step, index) => ({ ...step, step: index }));
    // A subgraph's run, passed the user's message, stored before its node's step.
    const inner: HistoryStep[] = [
      { ...(steps[0] as HistoryStep), runId: 'sub', step: 0, path: ['research'] },
      { ...(steps[1] as HistoryStep), runId: 'sub', step: 1, path: ['research', 'router'] },
    ];
    const withInner = [...numbered.slice(0, 2), ...inner, ...numbered.slice(2)];
    assert.deepEqual(
      groupTurns(withInner).map((turn) => turn.userText),
      groupTurns(numbered).map((turn) => turn.userText),
    );
    assert.equal(forkPointBefore(withInner, { userText: 'second', fromEnd: 0 }), 2);
  });
});

describe('the guardrail step', () => {
  it('is a row of its turn naming each guardrail that acted', () => {
    const blocked = [
      {
        runId: 'r9',
        node: 'input',
        kind: 'input',
        update: { messages: { id: 'u9', role: 'user', content: '카드 [CARD]', blocked: true } },
        at: '2026-01-01T00:00:00.000Z',
      },
      {
        runId: 'r9',
        node: 'guardrail',
        kind: 'node',
        update: {
          messages: [{ role: 'assistant', content: 'refused', blocked: true }],
          guardrails: [{ name: 'pii', stage: 'input', action: 'block', reason: 'card' }],
        },
        at: '2026-01-01T00:00:00.002Z',
      },
    ] as unknown as HistoryStep[];
    const [turn] = groupTurns(blocked);
    assert.ok(turn);
    const rows = inspectorRows(turn);
    assert.deepEqual(
      rows.map((row) => row.node),
      [null, 'guardrail'],
    );
    assert.deepEqual(guardrailsOf(rows[1]?.update ?? null), [
      { name: 'pii', stage: 'input', action: 'block', reason: 'card' },
    ]);
    assert.deepEqual(guardrailsOf({ guardrails: 'nope' }), []);
    assert.deepEqual(guardrailsOf(null), []);
  });
});
