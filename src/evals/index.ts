export {
  compareRuns,
  formatComparison,
  type ItemChange,
  type RunComparison,
} from './compare-runs.ts';
export { defineScorer, type ScorerDefinition } from './define-scorer.ts';
export { DatasetError } from './errors/dataset-error.ts';
export { UnknownScorerError } from './errors/unknown-scorer-error.ts';
export { type EvalItemInput, evalItemSchema, parseEvalItem } from './eval-item.ts';
export { evalMigrations } from './eval-migrations.ts';
export {
  type EvalStore,
  emptySummary,
  type Feedback,
  type FinishedEvalRun,
  type NewEvalRun,
} from './eval-store.ts';
export { type ExecuteEvalRunOptions, executeEvalRun, finishEvalRun } from './execute-eval-run.ts';
export { feedbackLines } from './feedback-lines.ts';
export { formatRunTable, summaryLine } from './format-run.ts';
export { junitReport } from './junit-report.ts';
export { PostgresEvalStore } from './postgres-eval-store.ts';
export { type DatasetFormat, parseDataset, readDataset } from './read-dataset.ts';
export { type RunEvalOptions, runEval, scoreOutcome } from './run-eval.ts';
export { type EvalTarget, type RunItemOptions, runItem } from './run-item.ts';
export {
  builtInScorers,
  type ScorerSelection,
  scorersFor,
  selectScorers,
} from './scorers/built-in-scorers.ts';
export { containsScorer } from './scorers/contains-scorer.ts';
export { exactScorer } from './scorers/exact-scorer.ts';
export { groundedness, groundedScorer } from './scorers/grounded-scorer.ts';
export { evalJudgeSchema, judgeScorer } from './scorers/judge-scorer.ts';
export { latencyScorer, tokensScorer } from './scorers/limit-scorers.ts';
export { comparableText, statesExpected } from './scorers/match-text.ts';
export { sourcesScorer } from './scorers/sources-scorer.ts';
export { toolsScorer } from './scorers/tools-scorer.ts';
export { SqliteEvalStore } from './sqlite-eval-store.ts';
export { itemScore, summarizeRun } from './summarize-run.ts';
export type {
  EvalItem,
  EvalRun,
  EvalRunItem,
  EvalRunSummary,
  EvalSummary,
  EvalToolCall,
  EvalTurn,
  ItemOutcome,
  ItemScore,
  ScoreResult,
  Scorer,
  ScorerTools,
} from './types.ts';
