import type { Migration } from '../core/index.ts';

const evalsSql = `
-- Evaluation runs (yeoul eval, POST /api/evals): summary and items as JSON.
CREATE TABLE eval_runs (
  id text COLLATE "C" PRIMARY KEY,
  owner text NOT NULL,
  name text NOT NULL,
  graph text NOT NULL,
  created_at text NOT NULL,
  status text NOT NULL,
  summary jsonb NOT NULL,
  items jsonb NOT NULL,
  error text
);
CREATE INDEX eval_runs_owner ON eval_runs (owner, created_at DESC);
CREATE INDEX eval_runs_name ON eval_runs (owner, name, created_at DESC);

-- Ratings of answers (POST /api/sessions/:id/feedback): one per answer, the latest wins.
CREATE TABLE eval_feedback (
  session_id text COLLATE "C" NOT NULL,
  answer_key text NOT NULL,
  owner text NOT NULL,
  rating smallint NOT NULL,
  comment text,
  input text NOT NULL,
  answer text NOT NULL,
  rated_at text NOT NULL,
  PRIMARY KEY (session_id, answer_key)
);
`;

/** The evaluations' schema in PostgreSQL (versions 600–699): runs and feedback. */
export const evalMigrations: readonly Migration[] = [
  { version: 600, name: 'eval_runs_and_feedback', sql: evalsSql },
];
