// `npm run bench:eval`: what `yeoul eval` adds to the runs themselves. A 200-item dataset (the
// items of `evals/seed-scenarios.jsonl` that need no network, repeated) runs on the offline
// model through the real runtime (SQLite store, tools, knowledge base): once without scoring,
// twice with the default scorers (judge off). Reports runs/s each way, the time the scorers
// took against the time the runs took, and whether the two scored runs gave the same scores.
// Progress goes to stderr; the last line on stdout is one JSON object with `targets`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  builtInScorers,
  type EvalItem,
  readDataset,
  runEval,
  type Scorer,
  selectScorers,
} from '../src/evals/index.ts';
import { anonymousOwner } from '../src/identity/index.ts';
import { createRuntime, evalTargetOf, readServerConfig } from '../src/server/index.ts';
import { ratio, target } from './lib/stats.ts';

const log = (...parts: unknown[]) => console.error('[eval]', ...parts);
const itemCount = Number(process.env.BENCH_EVAL_ITEMS ?? 200);
const concurrency = 4;
const rounds = 5;
const dataDir = mkdtempSync(join(tmpdir(), 'yeoul-bench-eval-'));
const runtime = await createRuntime(
  readServerConfig({ YEOUL_DATA_DIR: dataDir, YEOUL_MODEL: 'offline', PORT: '0' }),
);

/** The items of `evals/seed-scenarios.jsonl` whose tools stay offline, repeated to `count`. */
async function datasetOf(count: number): Promise<EvalItem[]> {
  const seeds = (
    await readDataset(join(import.meta.dirname, '..', 'evals', 'seed-scenarios.jsonl'))
  ).filter((item) => !item.tags?.includes('network'));
  return Array.from({ length: count }, (_, index) => {
    const seed = seeds[index % seeds.length] as EvalItem;
    return { ...seed, id: `${seed.id}-${index}` };
  });
}

/** The built-in scorers, timed: the time each call took is added to `spent.ms`. */
function timedScorers(spent: { ms: number }): Scorer[] {
  return builtInScorers.map((scorer) => ({
    name: scorer.name,
    appliesByDefault: scorer.appliesByDefault ?? (() => false),
    async score(outcome, tools) {
      const started = performance.now();
      try {
        return await scorer.score(outcome, tools);
      } finally {
        spent.ms += performance.now() - started;
      }
    },
  }));
}

type Measure = Awaited<ReturnType<typeof measure>>;

/** The round of median speed. */
function median(measures: Measure[]): Measure {
  const sorted = [...measures].sort((a, b) => a.runsPerSecond - b.runsPerSecond);
  return sorted[Math.floor(sorted.length / 2)] as Measure;
}

async function measure(items: EvalItem[], score: boolean) {
  const spent = { ms: 0 };
  const started = performance.now();
  const run = await runEval({
    items,
    target: evalTargetOf(runtime, anonymousOwner),
    scorers: { known: timedScorers(spent) },
    concurrency,
    score,
  });
  const seconds = (performance.now() - started) / 1000;
  const runsPerSecond = Math.round((items.length / seconds) * 100) / 100;
  log(
    `${score ? 'scored' : 'unscored'}: ${items.length} items in ${seconds.toFixed(2)} s (${runsPerSecond}/s), scorers ${Math.round(spent.ms)} ms`,
  );
  return { run, seconds, runsPerSecond, scoringMs: spent.ms };
}

try {
  const items = await datasetOf(itemCount);
  log(`${items.length} items, concurrency ${concurrency}, ${rounds} rounds; warming up`);
  await measure(items, true);
  // Alternating rounds, compared by their medians: the machine's drift hits both sides alike.
  const unscoredRounds: Measure[] = [];
  const scoredRounds: Measure[] = [];
  for (let round = 0; round < rounds; round += 1) {
    unscoredRounds.push(await measure(items, false));
    scoredRounds.push(await measure(items, true));
  }
  const unscored = median(unscoredRounds);
  const scored = median(scoredRounds);
  const scoresOf = (run: Measure['run']) => JSON.stringify(run.items.map((item) => item.scores));
  const sameScores = scoredRounds.every((round) => scoresOf(round.run) === scoresOf(scored.run));
  const defaultScorers = selectScorers(undefined)
    .known.filter((scorer) => scorer.appliesByDefault)
    .map((scorer) => scorer.name);
  // The scorers' own time over the time of the runs they score: what scoring adds, free of
  // the noise of comparing two separate timings on a shared machine.
  const scoringShare = ratio(scored.scoringMs, scored.seconds * 1000 - scored.scoringMs);
  console.log(
    JSON.stringify({
      bench: 'eval',
      items: items.length,
      concurrency,
      model: 'offline',
      scorers: defaultScorers,
      runsPerSecond: {
        withoutScoring: unscored.runsPerSecond,
        withScoring: scored.runsPerSecond,
        rounds: {
          withoutScoring: unscoredRounds.map((round) => round.runsPerSecond),
          withScoring: scoredRounds.map((round) => round.runsPerSecond),
        },
      },
      // The medians' difference: for information only, as it moves with whatever else the
      // machine runs; the target is the scorers' measured time.
      wallClockOverhead: ratio(
        unscored.runsPerSecond - scored.runsPerSecond,
        unscored.runsPerSecond,
      ),
      scoringMs: Math.round(scored.scoringMs),
      summary: scored.run.summary,
      targets: {
        scoringTimeShare: target(scoringShare, 0.1, 'lower'),
        sameScoresEveryRound: target(sameScores ? 1 : 0, 1, 'higher'),
      },
    }),
  );
} finally {
  await runtime.close();
  rmSync(dataDir, { recursive: true, force: true });
}
