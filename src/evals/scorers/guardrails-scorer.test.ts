import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evalOutcome } from '../../testing/internal/index.ts';
import type { EvalTurn } from '../types.ts';
import { guardrailsScorer } from './guardrails-scorer.ts';

const blockedBy = (name: string): EvalTurn => ({
  input: 'x',
  response: 'refused',
  status: 'blocked',
  guardrails: [{ name, stage: 'input', action: 'block', reason: 'card' }],
  guardrail: { name, stage: 'input', reason: 'card' },
});
const redacted: EvalTurn = {
  input: 'y',
  response: 'ok',
  status: 'published',
  guardrails: [{ name: 'pii', stage: 'input', action: 'redact', reason: 'email' }],
};
const plain: EvalTurn = { input: 'z', response: 'ok', status: 'published' };

/** An outcome whose turns are `turns`, expecting `expectedGuardrail`. */
function outcome(expectedGuardrail: string, turns: EvalTurn[]) {
  return { ...evalOutcome({ expectedGuardrail }), turns };
}

describe('guardrails (scorer)', () => {
  it('applies by default only to items with expectedGuardrail', () => {
    assert.equal(guardrailsScorer.appliesByDefault?.(evalOutcome({}).item), false);
    assert.equal(
      guardrailsScorer.appliesByDefault?.(evalOutcome({ expectedGuardrail: 'none' }).item),
      true,
    );
  });

  it('NAME passes when a turn was blocked by it, and fails on a miss naming what acted', async () => {
    const hit = await guardrailsScorer.score(outcome('pii', [plain, blockedBy('pii')]), {});
    assert.deepEqual([hit.score, hit.passed], [1, true]);
    const miss = await guardrailsScorer.score(outcome('pii', [redacted]), {});
    assert.deepEqual([miss.score, miss.passed], [0, false]);
    assert.match(miss.reason, /expected a turn blocked by pii.*pii:redact/);
    const other = await guardrailsScorer.score(outcome('pii', [blockedBy('promptInjection')]), {});
    assert.equal(other.passed, false);
  });

  it('NAME:ACTION passes when that guardrail took that action on a turn', async () => {
    assert.equal(
      (await guardrailsScorer.score(outcome('pii:redact', [redacted]), {})).passed,
      true,
    );
    assert.equal((await guardrailsScorer.score(outcome('pii:warn', [redacted]), {})).passed, false);
  });

  it('none passes without a block and catches a false positive', async () => {
    assert.equal(
      (await guardrailsScorer.score(outcome('none', [plain, redacted]), {})).passed,
      true,
    );
    const falsePositive = await guardrailsScorer.score(outcome('none', [blockedBy('pii')]), {});
    assert.equal(falsePositive.passed, false);
    assert.match(falsePositive.reason, /expected no turn blocked.*pii:block/);
  });
});
