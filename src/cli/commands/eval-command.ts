import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { defaultGraphName } from '../../agents/index.ts';
import {
  compareRuns,
  DatasetError,
  type EvalRun,
  executeEvalRun,
  feedbackLines,
  formatComparison,
  formatRunTable,
  junitReport,
  readDataset,
  type Scorer,
  selectScorers,
  summaryLine,
  UnknownScorerError,
} from '../../evals/index.ts';
import { ModelConfigError, readModelConfig, resolveModel } from '../../models/index.ts';
import { defineCommand } from '../define-command.ts';
import { UsageError } from '../errors/usage-error.ts';
import type { CliIo } from '../io.ts';
import { withRuntime } from '../open-runtime.ts';
import {
  namesOwner,
  ownerChoice,
  ownerDetails,
  ownerOptions,
  ownerSynopsis,
  resolveOwner,
} from '../owner-options.ts';
import { dataOption, integerOption, parseCommandArgs } from '../parse-command-args.ts';
import { createProgressReporter } from '../progress-bar.ts';

const runOptions = {
  ...dataOption,
  ...ownerOptions,
  graph: { type: 'string' },
  scorers: { type: 'string' },
  concurrency: { type: 'string' },
  'min-score': { type: 'string' },
  name: { type: 'string' },
  json: { type: 'boolean' },
  junit: { type: 'string' },
  'judge-model': { type: 'string' },
  config: { type: 'string' },
} as const;

/** `yeoul eval DATASET`, `yeoul eval compare A B`, `yeoul eval export-feedback --out FILE`. */
export const evalCommand = defineCommand({
  name: 'eval',
  summary: 'run a dataset through a graph and score it; compare runs; export rated answers',
  usage: [
    `eval DATASET [--graph NAME] [--scorers a,b] [--concurrency N] [--min-score X] [--name NAME] [--json] [--junit FILE] [--judge-model provider:id] ${ownerSynopsis} [--config FILE] [--data DIR]`,
    `eval compare A B [--json] ${ownerSynopsis} [--data DIR]`,
    `eval export-feedback --out FILE ${ownerSynopsis} [--data DIR]`,
  ],
  details: [
    'DATASET        a .jsonl file (one item a line) or a .csv file with the same columns',
    `--graph NAME   the chat graph items run on (default ${defaultGraphName})`,
    '--scorers a,b  contains, exact, tools, sources, grounded, judge, latency, tokens (and',
    '               the config file’s); replaces the default set (contains with expected,',
    '               tools with expectedTools, sources with expectedSources, always grounded)',
    '--concurrency N  items run at once (default 4)',
    '--min-score X  fail (exit 1) when the mean score is below X (0..1, default 0)',
    '--name NAME    the run’s name (default the dataset’s file name)',
    '--json         print the stored run as JSON instead of the table',
    '--junit FILE   write JUnit XML: one testcase per item, a failure per failed item',
    '--judge-model provider:id  the model of the judge scorer (default the agent’s model)',
    'compare A B    A, B: run ids, or names (the latest run of that name); lists what',
    '               changed per item; exit 1 when an item passed in A fails in B',
    'export-feedback --out FILE  one dataset line per answer rated 👍/👎 (every owner’s, or',
    '               the named owner’s)',
    ...ownerDetails,
    'Exit code 0 when every item passes and the mean score ≥ --min-score, 1 when not,',
    '2 on bad usage or a bad dataset (every bad line named with its number).',
  ],
  example: 'eval evals/seed-scenarios.jsonl --junit eval-report.xml',
  async run(args, io) {
    if (args[0] === 'compare') return compare(args.slice(1), io);
    if (args[0] === 'export-feedback') return exportFeedback(args.slice(1), io);
    return evaluate(args, io);
  },
});

async function evaluate(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('eval', args, runOptions, {
    min: 1,
    max: 1,
    names: 'DATASET',
  });
  const path = positionals[0] as string;
  const concurrency = integerOption('eval', '--concurrency', values.concurrency, {
    min: 1,
    max: 64,
  });
  const minScore = minScoreOption(values['min-score']);
  const acting = await ownerChoice('eval', values);
  const scorerNames = values.scorers
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const judge =
    values['judge-model'] === undefined ? undefined : await judgeModel(io, values['judge-model']);
  let items: Awaited<ReturnType<typeof readDataset>>;
  try {
    items = await readDataset(path);
  } catch (error) {
    if (!(error instanceof DatasetError)) throw error;
    for (const problem of error.problems) io.stderr.write(`yeoul: ${path}: ${problem}\n`);
    return 2;
  }
  const started = performance.now();
  // Ctrl-C stops the run; it is stored as failed rather than left running.
  const controller = new AbortController();
  const stop = () =>
    controller.abort(new Error('the evaluation was interrupted (SIGINT or SIGTERM)'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const settings = { dataDir: values.data, config: values.config };
  const run = await withRuntime(io.env, settings, async (runtime) => {
    const { evalGraphNames, evalTargetOf, userScorersOf } = await import('../../server/index.ts');
    const owner = await resolveOwner(runtime, acting, 'yeoul:write');
    const graphs = evalGraphNames(runtime);
    for (const graph of [values.graph, ...items.map((item) => item.graph)]) {
      if (graph !== undefined && !graphs.includes(graph)) {
        throw new UsageError({
          problem: `--graph must name a chat graph (${graphs.join(', ')}), not "${graph}"`,
          command: 'eval',
        });
      }
    }
    const scorers = scorerSelection(scorerNames, userScorersOf(runtime));
    // One run request of the owner, counted but never limited (the items' usage counts as each ends).
    await (await runtime.usage.admit(owner, { exempt: true })).finish();
    const progress = createProgressReporter(io.stderr, 4);
    try {
      return await executeEvalRun({
        items,
        target: evalTargetOf(runtime, owner),
        scorers,
        graph: values.graph ?? defaultGraphName,
        ...(concurrency === undefined ? {} : { concurrency }),
        tools: { judge: judge ?? runtime.model },
        store: runtime.evals,
        owner,
        name: values.name ?? basename(path),
        onItem: (item, done, total) =>
          progress({ done, total, status: item.passed ? 'PASS' : 'FAIL', label: item.id }),
        signal: controller.signal,
      });
    } finally {
      progress.end();
    }
  }).finally(() => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  });
  const seconds = (performance.now() - started) / 1000;
  if (values.junit) await writeFile(values.junit, junitReport(run));
  if (values.json) io.stdout.write(`${JSON.stringify(run, null, 2)}\n`);
  else io.stdout.write(`${formatRunTable(run)}${summaryLine(run, seconds)}\n`);
  const passed = run.summary.failed === 0 && run.summary.meanScore >= minScore;
  if (!passed && run.summary.failed === 0) {
    io.stderr.write(
      `yeoul: the mean score ${run.summary.meanScore} is below --min-score ${minScore}\n`,
    );
  }
  return passed ? 0 : 1;
}

function minScoreOption(value: string | undefined): number {
  if (value === undefined) return 0;
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 1) {
    throw new UsageError({
      problem: `--min-score must be a number from 0 to 1, not "${value}"`,
      command: 'eval',
    });
  }
  return number;
}

async function judgeModel(io: CliIo, spec: string) {
  const { readEnvironment } = await import('../../config/index.ts');
  try {
    return resolveModel(readModelConfig({ ...readEnvironment(io.env), YEOUL_MODEL: spec }));
  } catch (error) {
    if (error instanceof ModelConfigError) {
      throw new UsageError({ problem: `--judge-model: ${error.message}`, command: 'eval' });
    }
    throw error;
  }
}

function scorerSelection(names: string[] | undefined, extra: Scorer[]) {
  try {
    return selectScorers(names, extra);
  } catch (error) {
    if (error instanceof UnknownScorerError) {
      throw new UsageError({ problem: `--scorers: ${error.message}`, command: 'eval' });
    }
    throw error;
  }
}

async function compare(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'eval',
    args,
    { ...dataOption, ...ownerOptions, json: { type: 'boolean' } },
    { min: 2, max: 2, names: 'the runs A and B to compare' },
  );
  const acting = await ownerChoice('eval', values);
  const [a, b] = await withRuntime(
    io.env,
    { dataDir: values.data },
    async (runtime) => {
      const owner = await resolveOwner(runtime, acting, 'yeoul:read');
      const find = async (reference: string): Promise<EvalRun> => {
        const run =
          (await runtime.evals.get(reference, owner)) ??
          (await runtime.evals.latestNamed(reference, owner));
        if (run === undefined) {
          throw new UsageError({
            problem: `no evaluation run has the id or name "${reference}"`,
            command: 'eval',
          });
        }
        return run;
      };
      return [await find(positionals[0] as string), await find(positionals[1] as string)];
    },
    { agents: false },
  );
  const comparison = compareRuns(a, b);
  io.stdout.write(
    values.json ? `${JSON.stringify(comparison, null, 2)}\n` : formatComparison(comparison),
  );
  return comparison.regressions.length > 0 ? 1 : 0;
}

async function exportFeedback(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(
    'eval',
    args,
    { ...dataOption, ...ownerOptions, out: { type: 'string' } },
    { min: 0, max: 0, names: '' },
  );
  if (!values.out)
    throw new UsageError({ problem: 'export-feedback needs --out FILE', command: 'eval' });
  // Every owner's ratings, unless an owner option names one.
  const named = namesOwner(values);
  const acting = await ownerChoice('eval', values);
  const feedback = await withRuntime(
    io.env,
    { dataDir: values.data },
    async (runtime) =>
      runtime.evals.feedback(named ? await resolveOwner(runtime, acting, 'yeoul:read') : undefined),
    { agents: false },
  );
  await writeFile(values.out, feedbackLines(feedback));
  const up = feedback.filter((entry) => entry.rating === 1).length;
  io.stdout.write(
    `wrote ${feedback.length} dataset line${feedback.length === 1 ? '' : 's'} to ${values.out} (${up} 👍, ${feedback.length - up} 👎)\n`,
  );
  return 0;
}
