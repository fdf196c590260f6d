import type { ItemOutcome, ScoreResult, Scorer, ScorerTools } from './types.ts';

/** A user scorer as the config file declares it. */
export interface ScorerDefinition {
  /** How the scorer is named in `--scorers` and in reports: `^[a-z][a-z0-9_-]{0,63}$`. */
  name: string;
  /** Scores one item's outcome: a score from 0 to 1, whether it passed, and why. */
  score(outcome: ItemOutcome, tools: ScorerTools): ScoreResult | Promise<ScoreResult>;
}

/**
 * Declares a scorer for `yeoul eval` (a typed identity function): the config file's
 * `scorers: [...]` hands these to the evaluation runner, beside the built-in ones.
 * @example
 * export const polite = defineScorer({
 *   name: 'polite',
 *   score: ({ response }) => {
 *     const passed = /감사|thank/i.test(response);
 *     return { score: passed ? 1 : 0, passed, reason: passed ? 'thanks the user' : 'no thanks' };
 *   },
 * });
 */
export function defineScorer(definition: ScorerDefinition): Scorer {
  return definition;
}
