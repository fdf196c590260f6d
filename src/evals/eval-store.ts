import type { EvalRun, EvalRunSummary, EvalSummary } from './types.ts';

/** A rating of a session's answer (`POST /api/sessions/:id/feedback`). */
export interface Feedback {
  sessionId: string;
  owner: string;
  rating: 1 | -1;
  comment?: string;
  /** The user message the rated answer answered. */
  input: string;
  /** The rated answer. */
  answer: string;
  /** ISO time of the (latest) rating. */
  ratedAt: string;
}

/** A new run as it starts: `running`, no items yet. */
export interface NewEvalRun {
  id: string;
  owner: string;
  name: string;
  graph: string;
  createdAt: string;
}

/** How a run ended. */
export interface FinishedEvalRun {
  status: 'done' | 'failed';
  summary: EvalSummary;
  items: EvalRun['items'];
  error?: string;
}

/**
 * Where evaluation runs and feedback live: SQLite in the data folder's database, or
 * PostgreSQL with `DATABASE_URL` (one conformance suite for both). Everything is
 * owner-scoped: another owner's run is absent, as if it did not exist.
 */
export interface EvalStore {
  create(run: NewEvalRun): Promise<void>;
  finish(id: string, result: FinishedEvalRun): Promise<void>;
  /** The run, or undefined when there is none of `owner`'s with this id. */
  get(id: string, owner: string): Promise<EvalRun | undefined>;
  /** The owner's latest run named `name`. */
  latestNamed(name: string, owner: string): Promise<EvalRun | undefined>;
  /** The owner's runs, newest first, without items. */
  list(owner: string, limit?: number): Promise<EvalRunSummary[]>;
  /** Records a rating; rating the same answer again replaces it. */
  rate(feedback: Feedback): Promise<void>;
  /** Every rating (of `owner`, or of everyone), oldest first. */
  feedback(owner?: string): Promise<Feedback[]>;
}

/** A run's summary before it has items. */
export const emptySummary: EvalSummary = {
  items: 0,
  passed: 0,
  failed: 0,
  meanScore: 0,
  byScorer: {},
};
