import { assessGrounding, readToolFacts } from '../../agents/index.ts';
import type { ItemOutcome, ScoreResult, Scorer } from '../types.ts';

/**
 * `grounded`: every count and number the answers state is found, by value, in the item's
 * tool results, its retrieved context or its own input — the ops agent's grounding check
 * (`assessGrounding`: counts against a log search's `count`, never against digits of
 * timestamps or ids) applied to each turn, with the item's messages as part of the evidence.
 */
export const groundedScorer: Scorer = {
  name: 'grounded',
  appliesByDefault: () => true,
  score(outcome) {
    return groundedness(outcome);
  },
};

/** The grounding verdict of an item: its weakest turn. */
export function groundedness(outcome: ItemOutcome): ScoreResult {
  const toolResults = outcome.toolCalls.map((call) => call.result);
  const facts = readToolFacts(toolResults);
  // The item's own messages are evidence too: "123 * 456" grounds 123 and 456.
  const context = [outcome.context, ...outcome.turns.map((turn) => turn.input)].join('\n');
  let worst: ScoreResult = { score: 1, passed: true, reason: '' };
  outcome.turns.forEach((turn, index) => {
    const { check } = assessGrounding(
      { question: turn.input, answer: turn.response, toolResults, context },
      facts,
    );
    if (check.score < worst.score || (!check.passed && worst.passed)) {
      const where = outcome.turns.length > 1 ? `turn ${index + 1}: ` : '';
      worst = { score: check.score, passed: check.passed, reason: `${where}${check.feedback}` };
    }
  });
  if (worst.passed) {
    const evidence = [
      toolResults.length > 0
        ? `${toolResults.length} tool result${toolResults.length === 1 ? '' : 's'}`
        : '',
      outcome.context.trim() ? 'the retrieved context' : '',
      'the input',
    ].filter(Boolean);
    worst = { ...worst, reason: `every number stated is in ${evidence.join(', ')}` };
  }
  return worst;
}
