import { defaultGraphName } from '../agents/index.ts';
import { createId } from '../core/index.ts';
import { type EvalTarget, runItem } from './run-item.ts';
import { type ScorerSelection, scorersFor } from './scorers/built-in-scorers.ts';
import { summarizeRun } from './summarize-run.ts';
import type {
  EvalItem,
  EvalRunItem,
  EvalSummary,
  ItemOutcome,
  ItemScore,
  ScorerTools,
} from './types.ts';

/** What an evaluation run needs. */
export interface RunEvalOptions {
  items: EvalItem[];
  target: EvalTarget;
  /** The scorers (`selectScorers`). */
  scorers: ScorerSelection;
  /** The chat graph items run on unless they name one (default: the default graph). */
  graph?: string;
  /** Items run at once (default 4). */
  concurrency?: number;
  /** What scorers may use: the judge model. */
  tools?: Omit<ScorerTools, 'signal'>;
  /** False: run the items but score nothing (for measuring what scoring costs). */
  score?: boolean;
  signal?: AbortSignal;
  /** Called as each item is scored, in the order items finish. */
  onItem?: (item: EvalRunItem, done: number, total: number) => void;
}

/**
 * Runs every item of a dataset through a graph, `concurrency` at a time, each on a new
 * session, and scores it. The items come back in the dataset's order whatever order they
 * finished in; an item whose run throws fails with a `run` score naming the error.
 * @example
 * const { items, summary } = await runEval({ items, target: runtime.runner, scorers: selectScorers(undefined) });
 */
export async function runEval(
  options: RunEvalOptions,
): Promise<{ items: EvalRunItem[]; summary: EvalSummary }> {
  const { items } = options;
  const graph = options.graph ?? defaultGraphName;
  const results: EvalRunItem[] = new Array(items.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      const item = items[index] as EvalItem;
      options.signal?.throwIfAborted();
      const result = await evaluateItem(item, graph, options);
      results[index] = result;
      done += 1;
      options.onItem?.(result, done, items.length);
    }
  };
  const concurrency = Math.max(1, Math.min(options.concurrency ?? 4, items.length));
  // Every worker is done before the run ends, even when one failed (none left running).
  const outcomes = await Promise.allSettled(Array.from({ length: concurrency }, worker));
  const failure = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
  return { items: results, summary: summarizeRun(results) };
}

async function evaluateItem(
  item: EvalItem,
  graph: string,
  options: RunEvalOptions,
): Promise<EvalRunItem> {
  const sessionId = `eval-${createId()}`;
  let outcome: ItemOutcome;
  try {
    outcome = await runItem(item, options.target, {
      sessionId,
      graph,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    options.signal?.throwIfAborted();
    const reason = `the run failed: ${error instanceof Error ? error.message : String(error)}`;
    return {
      id: item.id,
      input: item.input,
      response: '',
      sessionId,
      passed: false,
      scores: [{ scorer: 'run', score: 0, passed: false, reason }],
      latencyMs: 0,
      usage: { llmCalls: 0, inputTokens: 0, outputTokens: 0 },
      ...(item.tags ? { tags: item.tags } : {}),
    };
  }
  const scores = options.score === false ? [] : await scoreOutcome(outcome, options);
  return {
    id: item.id,
    input: item.input,
    response: outcome.response,
    sessionId,
    passed: scores.every((entry) => entry.passed),
    scores,
    latencyMs: Math.round(outcome.latencyMs),
    usage: outcome.usage,
    ...(item.tags ? { tags: item.tags } : {}),
  };
}

/** Every applicable scorer on one outcome; a scorer that throws fails with its error as the reason. */
export async function scoreOutcome(
  outcome: ItemOutcome,
  options: Pick<RunEvalOptions, 'scorers' | 'tools' | 'signal'>,
): Promise<ItemScore[]> {
  const tools: ScorerTools = {
    ...options.tools,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const scores: ItemScore[] = [];
  for (const scorer of scorersFor(outcome.item, options.scorers)) {
    try {
      const result = await scorer.score(outcome, tools);
      const score = Number.isFinite(result.score) ? Math.min(1, Math.max(0, result.score)) : 0;
      scores.push({
        scorer: scorer.name,
        score,
        passed: result.passed === true,
        reason: String(result.reason ?? ''),
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      scores.push({
        scorer: scorer.name,
        score: 0,
        passed: false,
        reason: `the scorer failed: ${message}`,
      });
    }
  }
  return scores;
}
