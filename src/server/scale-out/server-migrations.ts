import { combineMigrations, type Migration } from '../../core/index.ts';
import { evalMigrations } from '../../evals/index.ts';
import { checkpointMigrations } from '../../graph/index.ts';
import { usageMigrations } from '../../identity/index.ts';
import { knowledgeMigrations } from '../../knowledge/index.ts';
import { mcpSessionMigrations } from '../../mcp/index.ts';
import { memoryMigrations } from '../../memory-store/index.ts';
import { scheduleMigrations } from '../../schedules/index.ts';
import { webhookMigrations } from '../../webhooks/index.ts';
import { responseMigrations } from '../responses/response-migrations.ts';
import { runMigrations } from '../runs/run-migrations.ts';
import { guardrailVaultMigrations } from '../sessions/guardrail-vault-migrations.ts';

const sessionsSql = `
-- The session registry (SessionStore): who owns each session and what it is about.
CREATE TABLE server_sessions (
  session_id text COLLATE "C" PRIMARY KEY,
  owner text NOT NULL,
  title text NOT NULL DEFAULT '',
  created_at bigint NOT NULL
);
CREATE INDEX server_sessions_owner ON server_sessions (owner, created_at DESC);
`;

/**
 * The start of both enqueue functions (301's, 305's): the session's lock, then the refusal
 * when more than p_limit requests are in the line.
 */
const takeUnlessFull = `  PERFORM pg_advisory_xact_lock(hashtextextended('yeoul_session_queue:' || p_session, 0));
  SELECT count(*) INTO ahead FROM server_session_queue WHERE session_id = p_session;
  IF ahead > p_limit THEN
    queue_id := NULL;
    RETURN;
  END IF;
`;

const queueSql = `
-- One row per request running or waiting on a session, whichever instance took it: the
-- session's requests run one at a time, in id order (in arrival order since version 305).
CREATE TABLE server_session_queue (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  session_id text COLLATE "C" NOT NULL,
  instance_id text COLLATE "C" NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX server_session_queue_session ON server_session_queue (session_id, id);
CREATE INDEX server_session_queue_instance ON server_session_queue (instance_id);

-- Takes a place in a session's line unless more than p_limit requests are already in it:
-- queue_id is null when refused; ahead counts the requests before it. The advisory lock
-- makes the count and the insert one step per session, so the bound holds across instances
-- and ids follow the order in which requests reached the database.
CREATE FUNCTION yeoul_session_enqueue(
  p_session text, p_instance text, p_limit integer, OUT queue_id bigint, OUT ahead integer
) LANGUAGE plpgsql AS $$
BEGIN
${takeUnlessFull}  INSERT INTO server_session_queue (session_id, instance_id)
    VALUES (p_session, p_instance) RETURNING id INTO queue_id;
END $$;
`;

const queueArrivalSql = `
-- A session's line in arrival order: arrived_at is when the request reached its instance, so
-- the round trips (and waits for a pooled connection) an instance makes before its place
-- reaches the database do not reorder requests; started marks the row that runs (at most one
-- per session). Rows already there keep their order: the first of each session runs.
ALTER TABLE server_session_queue
  ADD COLUMN arrived_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  ADD COLUMN started boolean NOT NULL DEFAULT false;
UPDATE server_session_queue SET arrived_at = created_at,
  started = id IN (SELECT min(id) FROM server_session_queue GROUP BY session_id);
CREATE INDEX server_session_queue_line ON server_session_queue (session_id, arrived_at, id);

-- Takes a place like yeoul_session_enqueue for a request that reached its instance
-- p_waited_ms before this call was sent (on the database's clock, from when the call arrived —
-- not after waiting for the lock — so instances' clocks do not matter; at most 10 s counts);
-- the place starts at once (started) when the line was empty.
CREATE FUNCTION yeoul_session_enqueue(
  p_session text, p_instance text, p_limit integer, p_waited_ms double precision,
  OUT queue_id bigint, OUT ahead integer, OUT started boolean
) LANGUAGE plpgsql AS $$
BEGIN
${takeUnlessFull}  started := ahead = 0;
  INSERT INTO server_session_queue (session_id, instance_id, arrived_at, started)
    VALUES (p_session, p_instance,
      statement_timestamp()
        - make_interval(secs => least(greatest(coalesce(p_waited_ms, 0), 0), 10000) / 1000),
      started)
    RETURNING id INTO queue_id;
END $$;

-- Starts the place p_id when no request of its session runs and none waiting arrived before it.
-- state is 'started', 'gone' (the row was removed) or 'waiting', with the instance of the row
-- in the way (the running one, else the first to arrive). Both functions count on READ
-- COMMITTED (each statement sees what was committed before it, the lock's holder's included).
CREATE FUNCTION yeoul_session_start(
  p_session text, p_id bigint, OUT state text, OUT blocker_instance text
) LANGUAGE plpgsql AS $$
DECLARE
  mine server_session_queue%ROWTYPE;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('yeoul_session_queue:' || p_session, 0));
  SELECT * INTO mine FROM server_session_queue WHERE id = p_id;
  IF NOT FOUND THEN
    state := 'gone';
    RETURN;
  END IF;
  IF mine.started THEN
    state := 'started';
    RETURN;
  END IF;
  SELECT instance_id INTO blocker_instance FROM server_session_queue
    WHERE session_id = p_session AND id <> p_id
      AND (started OR (arrived_at, id) < (mine.arrived_at, mine.id))
    ORDER BY started DESC, arrived_at, id LIMIT 1;
  IF FOUND THEN
    state := 'waiting';
    RETURN;
  END IF;
  UPDATE server_session_queue SET started = true WHERE id = p_id;
  -- Removed meanwhile (its instance taken for dead: deletes do not take the lock).
  state := CASE WHEN FOUND THEN 'started' ELSE 'gone' END;
END $$;
`;

const eventsSql = `
-- Events of runs, for clients that join a run from another instance: one row per event,
-- or per stretch of consecutive token events (data is a JSON array of the events' data,
-- numbered first_n to last_n). The run's last row has event '#end'.
CREATE TABLE server_run_events (
  id bigint GENERATED ALWAYS AS IDENTITY,
  run_key text COLLATE "C" NOT NULL,
  first_n integer NOT NULL,
  last_n integer NOT NULL,
  session_id text COLLATE "C" NOT NULL,
  instance_id text COLLATE "C" NOT NULL,
  event text NOT NULL,
  data text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_key, first_n)
);
CREATE INDEX server_run_events_session ON server_run_events (session_id, id);
`;

/**
 * The server's schema in PostgreSQL (versions 300–399): sessions, the cross-instance session
 * queue, and the relayed events of runs. Approvals are checkpoint entries (graph, 200–299).
 */
export const serverMigrations: readonly Migration[] = [
  { version: 300, name: 'server_sessions', sql: sessionsSql },
  { version: 301, name: 'server_session_queue', sql: queueSql },
  { version: 302, name: 'server_run_events', sql: eventsSql },
  {
    version: 303,
    name: 'server_sessions_graph',
    // The user graph a session runs on ('' for the built-in agents).
    sql: "ALTER TABLE server_sessions ADD COLUMN graph text NOT NULL DEFAULT '';",
  },
  {
    version: 304,
    name: 'server_sessions_forked_from',
    // Where a fork came from (both null for a session that is not a fork).
    sql: 'ALTER TABLE server_sessions ADD COLUMN forked_from text, ADD COLUMN forked_at_step integer;',
  },
  { version: 305, name: 'server_session_queue_arrival', sql: queueArrivalSql },
];

/** Every migration of Yeoul's PostgreSQL store, in version order (what `yeoul migrate` applies). */
export function storeMigrations(): Migration[] {
  return combineMigrations(
    knowledgeMigrations,
    checkpointMigrations,
    serverMigrations,
    evalMigrations,
    memoryMigrations,
    usageMigrations,
    guardrailVaultMigrations,
    webhookMigrations,
    scheduleMigrations,
    runMigrations,
    responseMigrations,
    mcpSessionMigrations,
  );
}
