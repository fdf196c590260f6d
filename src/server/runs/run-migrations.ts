import type { Migration } from '../../core/index.ts';

const runsSql = `
-- One row per run on a session (RunStore): the record whole as JSON, the columns lists and
-- claims look up by. A schedule's slot holds one run at most, however many instances fire it.
-- id keeps the order runs were created in. Deleted with the session.
CREATE TABLE server_runs (
  run_id text COLLATE "C" PRIMARY KEY,
  session_id text COLLATE "C" NOT NULL,
  owner text NOT NULL,
  status text NOT NULL,
  source text NOT NULL,
  schedule_id text COLLATE "C",
  scheduled_for text,
  created_at bigint NOT NULL,
  record jsonb NOT NULL,
  id bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX server_runs_owner ON server_runs (owner, created_at DESC, id DESC);
CREATE INDEX server_runs_session ON server_runs (session_id);
CREATE INDEX server_runs_status ON server_runs (status);
CREATE UNIQUE INDEX server_runs_slot ON server_runs (schedule_id, scheduled_for)
  WHERE schedule_id IS NOT NULL AND scheduled_for IS NOT NULL;
`;

const sessionOrderSql = `
-- A session's runs newest first, straight from an index: without it the planner may walk the
-- owner's index (already in that order) through every run the owner ever had.
CREATE INDEX server_runs_session_created ON server_runs (session_id, created_at DESC, id DESC);
DROP INDEX server_runs_session;
`;

/** The runs' schema in PostgreSQL (versions 940–949): the run records. */
export const runMigrations: readonly Migration[] = [
  { version: 940, name: 'server_runs', sql: runsSql },
  { version: 941, name: 'server_runs_session_created', sql: sessionOrderSql },
];
