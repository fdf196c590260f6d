import { UnknownScorerError } from '../errors/unknown-scorer-error.ts';
import type { EvalItem, Scorer } from '../types.ts';
import { containsScorer } from './contains-scorer.ts';
import { exactScorer } from './exact-scorer.ts';
import { groundedScorer } from './grounded-scorer.ts';
import { guardrailsScorer } from './guardrails-scorer.ts';
import { judgeScorer } from './judge-scorer.ts';
import { latencyScorer, tokensScorer } from './limit-scorers.ts';
import { sourcesScorer } from './sources-scorer.ts';
import { toolsScorer } from './tools-scorer.ts';

/** The scorers of the contract, in the order reports list them. */
export const builtInScorers: readonly Scorer[] = [
  containsScorer,
  exactScorer,
  toolsScorer,
  sourcesScorer,
  guardrailsScorer,
  groundedScorer,
  judgeScorer,
  latencyScorer,
  tokensScorer,
];

/** Which scorers an evaluation uses: the built-ins and the user's, or the ones named. */
export interface ScorerSelection {
  /** Every scorer known (built-in, then the config file's). */
  known: Scorer[];
  /** The names `--scorers` gave; undefined = the default set per item. */
  named?: Scorer[];
}

/**
 * Resolves `--scorers a,b` against the built-ins and the user's scorers (a user scorer may
 * not take a built-in's name). Unknown names are refused, every one listed.
 */
export function selectScorers(
  names: string[] | undefined,
  extra: readonly Scorer[] = [],
): ScorerSelection {
  const known = [...builtInScorers, ...extra];
  const clashes = extra.filter((scorer) =>
    builtInScorers.some((builtIn) => builtIn.name === scorer.name),
  );
  if (clashes.length > 0) {
    throw new UnknownScorerError({
      names: clashes.map((scorer) => `${scorer.name} (a built-in's name)`),
      known: known.map((scorer) => scorer.name),
    });
  }
  if (names === undefined) return { known };
  const unknown = names.filter((name) => !known.some((scorer) => scorer.name === name));
  if (unknown.length > 0 || names.length === 0) {
    throw new UnknownScorerError({ names: unknown, known: known.map((scorer) => scorer.name) });
  }
  const named = [...new Set(names)].map(
    (name) => known.find((scorer) => scorer.name === name) as Scorer,
  );
  return { known, named };
}

/**
 * The scorers an item gets: the named ones, else `contains` with `expected`, `tools` with
 * `expectedTools`, `sources` with `expectedSources`, always `grounded`, and the user's.
 */
export function scorersFor(item: EvalItem, selection: ScorerSelection): Scorer[] {
  if (selection.named) return selection.named;
  return selection.known.filter((scorer) =>
    scorer.appliesByDefault ? scorer.appliesByDefault(item) : !builtInScorers.includes(scorer),
  );
}
