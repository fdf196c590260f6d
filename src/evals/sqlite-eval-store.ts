import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { SqliteWriteBatch } from '../core/index.ts';
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

const schema = `
CREATE TABLE IF NOT EXISTS eval_runs (
  id TEXT PRIMARY KEY, owner TEXT NOT NULL, name TEXT NOT NULL, graph TEXT NOT NULL,
  created_at TEXT NOT NULL, status TEXT NOT NULL, summary TEXT NOT NULL, items TEXT NOT NULL,
  error TEXT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS eval_runs_owner ON eval_runs (owner, created_at DESC);
CREATE TABLE IF NOT EXISTS eval_feedback (
  session_id TEXT NOT NULL, answer_key TEXT NOT NULL, owner TEXT NOT NULL, rating INTEGER NOT NULL,
  comment TEXT, input TEXT NOT NULL, answer TEXT NOT NULL, rated_at TEXT NOT NULL,
  PRIMARY KEY (session_id, answer_key)
) WITHOUT ROWID;
`;

/**
 * Evaluation runs and feedback in the embedded SQLite store (the data folder's database,
 * beside the sessions), so a `yeoul serve` on the same folder lists what the CLI ran.
 */
export class SqliteEvalStore implements EvalStore {
  #batch: SqliteWriteBatch;
  #insert: StatementSync;
  #finish: StatementSync;
  #select: StatementSync;
  #selectNamed: StatementSync;
  #selectOwned: StatementSync;
  #upsertFeedback: StatementSync;
  #selectFeedback: StatementSync;
  #selectAllFeedback: StatementSync;

  constructor(database: DatabaseSync) {
    database.exec(schema);
    this.#batch = SqliteWriteBatch.of(database);
    this.#insert = database.prepare(
      'INSERT INTO eval_runs (id, owner, name, graph, created_at, status, summary, items) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.#finish = database.prepare(
      'UPDATE eval_runs SET status = ?, summary = ?, items = ?, error = ? WHERE id = ?',
    );
    this.#select = database.prepare('SELECT * FROM eval_runs WHERE id = ? AND owner = ?');
    this.#selectNamed = database.prepare(
      'SELECT * FROM eval_runs WHERE name = ? AND owner = ? ORDER BY created_at DESC, id DESC LIMIT 1',
    );
    this.#selectOwned = database.prepare(
      'SELECT id, name, graph, created_at, status, summary, error FROM eval_runs WHERE owner = ? ORDER BY created_at DESC, id DESC LIMIT ?',
    );
    this.#upsertFeedback = database.prepare(
      `INSERT INTO eval_feedback (session_id, answer_key, owner, rating, comment, input, answer, rated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (session_id, answer_key) DO UPDATE SET rating = excluded.rating, comment = excluded.comment, rated_at = excluded.rated_at`,
    );
    this.#selectFeedback = database.prepare(
      'SELECT * FROM eval_feedback WHERE owner = ? ORDER BY rated_at, session_id',
    );
    this.#selectAllFeedback = database.prepare(
      'SELECT * FROM eval_feedback ORDER BY rated_at, session_id',
    );
  }

  async create(run: NewEvalRun): Promise<void> {
    await this.#batch.run(() =>
      this.#insert.run(
        run.id,
        run.owner,
        run.name,
        run.graph,
        run.createdAt,
        'running',
        JSON.stringify(emptySummary),
        '[]',
      ),
    );
  }

  async finish(id: string, result: FinishedEvalRun): Promise<void> {
    await this.#batch.run(() =>
      this.#finish.run(
        result.status,
        JSON.stringify(result.summary),
        JSON.stringify(result.items),
        result.error ?? null,
        id,
      ),
    );
  }

  async get(id: string, owner: string): Promise<EvalRun | undefined> {
    this.#batch.flush();
    const row = this.#select.get(id, owner) as RunRow | undefined;
    return row ? runOf(row) : undefined;
  }

  async latestNamed(name: string, owner: string): Promise<EvalRun | undefined> {
    this.#batch.flush();
    const row = this.#selectNamed.get(name, owner) as RunRow | undefined;
    return row ? runOf(row) : undefined;
  }

  async list(owner: string, limit = 100): Promise<EvalRunSummary[]> {
    this.#batch.flush();
    return (this.#selectOwned.all(owner, limit) as unknown as RunRow[]).map(summaryOf);
  }

  async rate(feedback: Feedback): Promise<void> {
    await this.#batch.run(() =>
      this.#upsertFeedback.run(
        feedback.sessionId,
        answerKey(feedback),
        feedback.owner,
        feedback.rating,
        feedback.comment ?? null,
        feedback.input,
        feedback.answer,
        feedback.ratedAt,
      ),
    );
  }

  async feedback(owner?: string): Promise<Feedback[]> {
    this.#batch.flush();
    const rows = (owner === undefined
      ? this.#selectAllFeedback.all()
      : this.#selectFeedback.all(owner)) as unknown as FeedbackRow[];
    return rows.map(feedbackOf);
  }
}
