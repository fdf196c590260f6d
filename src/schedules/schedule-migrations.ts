import type { Migration } from '../core/index.ts';

const schedulesSql = `
-- Schedules (ScheduleStore): a cron in a time zone that starts a run at each slot for its
-- owner. Times are epoch milliseconds; next_run_at is the next slot to fire (null while
-- disabled). options and webhook are JSON text.
CREATE TABLE schedules (
  id text COLLATE "C" PRIMARY KEY,
  owner text NOT NULL,
  name text,
  cron text NOT NULL,
  timezone text NOT NULL,
  message text NOT NULL,
  graph text NOT NULL,
  session_id text COLLATE "C",
  options text NOT NULL,
  on_busy text NOT NULL,
  webhook text,
  enabled boolean NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  next_run_at bigint,
  last_run_at bigint,
  last_run_id text COLLATE "C"
);
CREATE INDEX schedules_owner ON schedules (owner, created_at DESC, id DESC);

-- One row per slot fired: the primary key lets exactly one instance claim a slot.
CREATE TABLE schedule_slots (
  schedule_id text COLLATE "C" NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
  scheduled_for bigint NOT NULL,
  run_id text COLLATE "C" NOT NULL,
  claimed_at bigint NOT NULL,
  PRIMARY KEY (schedule_id, scheduled_for)
);
CREATE INDEX schedule_slots_claimed ON schedule_slots (claimed_at);

-- Counts changes of definitions (an insert, a delete, an update that sets updated_at; not
-- firings), so each instance notices changes made elsewhere with one cheap read.
CREATE TABLE schedule_revision (id integer PRIMARY KEY CHECK (id = 1), value bigint NOT NULL);
INSERT INTO schedule_revision (id, value) VALUES (1, 0);
CREATE FUNCTION yeoul_schedules_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE schedule_revision SET value = value + 1 WHERE id = 1;
  RETURN NULL;
END $$;
CREATE TRIGGER schedules_changed AFTER INSERT OR DELETE OR UPDATE OF updated_at ON schedules
  FOR EACH STATEMENT EXECUTE FUNCTION yeoul_schedules_changed();
`;

/**
 * The schedules' schema in PostgreSQL (versions 920–939): schedules, claimed slots, the change
 * counter; then each schedule's metadata (JSON text, `{}` for none).
 */
export const scheduleMigrations: readonly Migration[] = [
  { version: 920, name: 'schedules', sql: schedulesSql },
  {
    version: 921,
    name: 'schedule_metadata',
    sql: "ALTER TABLE schedules ADD COLUMN metadata text NOT NULL DEFAULT '{}';",
  },
];
