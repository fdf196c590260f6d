import { defaultGraphName } from '../agents/index.ts';
import { createId } from '../core/index.ts';
import { type EvalStore, emptySummary } from './eval-store.ts';
import { type RunEvalOptions, runEval } from './run-eval.ts';
import type { EvalRun } from './types.ts';

/** A run to record: who owns it and what it is called, besides what `runEval` needs. */
export interface ExecuteEvalRunOptions extends RunEvalOptions {
  store: EvalStore;
  owner: string;
  name: string;
  /** The run's id (default: a new one). */
  id?: string;
}

/**
 * Records a run as `running`, runs and scores its items (`runEval`), and stores the
 * outcome: `done` with items and summary, or `failed` with the error when the run itself
 * could not go on. Resolves to the stored run.
 * @example
 * const run = await executeEvalRun({ items, target, scorers, store: runtime.evals, owner: 'anonymous', name: 'nightly' });
 */
export async function executeEvalRun(options: ExecuteEvalRunOptions): Promise<EvalRun> {
  const run = {
    id: options.id ?? createId(),
    owner: options.owner,
    name: options.name,
    graph: options.graph ?? defaultGraphName,
    createdAt: new Date().toISOString(),
  };
  await options.store.create(run);
  return finishEvalRun(run, options);
}

/** Runs the items of a run already recorded as `running`, and stores how it ended. */
export async function finishEvalRun(
  run: { id: string; name: string; graph: string; createdAt: string },
  options: ExecuteEvalRunOptions,
): Promise<EvalRun> {
  const base = { id: run.id, name: run.name, graph: run.graph, createdAt: run.createdAt };
  try {
    const { items, summary } = await runEval({ ...options, graph: run.graph });
    await options.store.finish(run.id, { status: 'done', summary, items });
    return { ...base, status: 'done', summary, items };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await options.store.finish(run.id, {
      status: 'failed',
      summary: emptySummary,
      items: [],
      error: message,
    });
    throw error;
  }
}
