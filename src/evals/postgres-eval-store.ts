import { type PostgresPool, queryPostgres } from '../core/index.ts';
import {
  answerKey,
  type FeedbackRow,
  feedbackOf,
  type RunRow,
  runOf,
  summaryOf,
} from './eval-rows.ts';
import {
  type EvalStore,
  emptySummary,
  type Feedback,
  type FinishedEvalRun,
  type NewEvalRun,
} from './eval-store.ts';
import type { EvalRun, EvalRunSummary } from './types.ts';

const runColumns = 'id, name, graph, created_at, status, summary::text AS summary, error';

/**
 * Evaluation runs and feedback in PostgreSQL (`eval_runs`, `eval_feedback` from
 * `evalMigrations`), shared by every instance on the database. Same rules as the SQLite store.
 */
export class PostgresEvalStore implements EvalStore {
  #pool: PostgresPool;

  constructor(pool: PostgresPool) {
    this.#pool = pool;
  }

  async create(run: NewEvalRun): Promise<void> {
    await queryPostgres(
      this.#pool,
      `INSERT INTO eval_runs (id, owner, name, graph, created_at, status, summary, items)
       VALUES ($1, $2, $3, $4, $5, 'running', $6, '[]')`,
      [run.id, run.owner, run.name, run.graph, run.createdAt, JSON.stringify(emptySummary)],
    );
  }

  async finish(id: string, result: FinishedEvalRun): Promise<void> {
    await queryPostgres(
      this.#pool,
      'UPDATE eval_runs SET status = $2, summary = $3, items = $4, error = $5 WHERE id = $1',
      [
        id,
        result.status,
        JSON.stringify(result.summary),
        JSON.stringify(result.items),
        result.error ?? null,
      ],
    );
  }

  async get(id: string, owner: string): Promise<EvalRun | undefined> {
    const { rows } = await queryPostgres<RunRow & Record<string, unknown>>(
      this.#pool,
      `SELECT ${runColumns}, items::text AS items FROM eval_runs WHERE id = $1 AND owner = $2`,
      [id, owner],
    );
    return rows[0] ? runOf(rows[0]) : undefined;
  }

  async latestNamed(name: string, owner: string): Promise<EvalRun | undefined> {
    const { rows } = await queryPostgres<RunRow & Record<string, unknown>>(
      this.#pool,
      `SELECT ${runColumns}, items::text AS items FROM eval_runs WHERE name = $1 AND owner = $2
       ORDER BY created_at DESC, id DESC LIMIT 1`,
      [name, owner],
    );
    return rows[0] ? runOf(rows[0]) : undefined;
  }

  async list(owner: string, limit = 100): Promise<EvalRunSummary[]> {
    const { rows } = await queryPostgres<RunRow & Record<string, unknown>>(
      this.#pool,
      `SELECT ${runColumns} FROM eval_runs WHERE owner = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
      [owner, limit],
    );
    return rows.map(summaryOf);
  }

  async rate(feedback: Feedback): Promise<void> {
    await queryPostgres(
      this.#pool,
      `INSERT INTO eval_feedback (session_id, answer_key, owner, rating, comment, input, answer, rated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (session_id, answer_key) DO UPDATE
         SET rating = excluded.rating, comment = excluded.comment, rated_at = excluded.rated_at`,
      [
        feedback.sessionId,
        answerKey(feedback),
        feedback.owner,
        feedback.rating,
        feedback.comment ?? null,
        feedback.input,
        feedback.answer,
        feedback.ratedAt,
      ],
    );
  }

  async feedback(owner?: string): Promise<Feedback[]> {
    const { rows } = await queryPostgres<FeedbackRow & Record<string, unknown>>(
      this.#pool,
      `SELECT * FROM eval_feedback ${owner === undefined ? '' : 'WHERE owner = $1'} ORDER BY rated_at, session_id`,
      owner === undefined ? [] : [owner],
    );
    return rows.map(feedbackOf);
  }
}
