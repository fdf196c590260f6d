import type { Migration } from '../../core/index.ts';

/** How many bytes of lines a segment takes before it is closed and the next step starts another. */
export const segmentSealBytes = 16_000;

const segmentsSql = `
-- A thread's log in segments of consecutive entries, as JSON lines (first_seq to last_seq).
-- Each step adds a one-line "tail" row; once the tail rows of a thread hold enough bytes
-- (the caller's p_seal) they are replaced by one sealed row, which the server compresses in place
-- (STORAGE MAIN keeps it in the table rather than in TOAST). A thread thus costs what its
-- steps added, compressed, plus a row per few dozen steps. The row with first_seq 0 is the
-- thread's base snapshot after a compaction.
CREATE TABLE graph_segments (
  thread_id text COLLATE "C" NOT NULL,
  first_seq integer NOT NULL,
  last_seq integer NOT NULL,
  updated_at bigint NOT NULL,
  -- Bytes of this thread's tail rows up to this one (0 for sealed rows and the base).
  pending integer NOT NULL,
  sealed boolean NOT NULL,
  status text NOT NULL,
  run_id text NOT NULL,
  data text NOT NULL,
  PRIMARY KEY (thread_id, first_seq)
);
ALTER TABLE graph_segments
  ALTER COLUMN thread_id SET STORAGE PLAIN,
  ALTER COLUMN status SET STORAGE PLAIN,
  ALTER COLUMN run_id SET STORAGE PLAIN,
  ALTER COLUMN data SET STORAGE MAIN;

-- Instances (processes) with their last heartbeat, to tell live runs from dead ones.
CREATE TABLE graph_instances (
  instance_id text COLLATE "C" PRIMARY KEY,
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  host text NOT NULL,
  pid integer NOT NULL
);

-- Appends entries (several threads in one call: a group commit), each only when its seq is
-- the thread's next: true per entry appended, false per conflict. Every statement inside sees
-- what committed before it (READ COMMITTED), and two writers of one seq meet on the primary
-- key, so never both succeed. Unless p_wait, the commit does not wait for the WAL to reach
-- disk (the entries are committed and seen by every instance at once; a later commit that
-- waits, such as a run's last entry, takes them to disk with it).
CREATE FUNCTION yeoul_graph_append(
  p_threads text[], p_seqs integer[], p_statuses text[], p_runs text[], p_times bigint[],
  p_lines text[], p_seal integer, p_wait boolean
) RETURNS boolean[] LANGUAGE plpgsql AS $$
DECLARE
  appended boolean[] := '{}';
  last_first integer;
  last_seq_now integer;
  last_pending integer;
  tail_pending integer;
  changed integer;
  merged_first integer;
  merged_last integer;
  merged_data text;
  merged_status text;
  merged_run text;
  merged_time bigint;
BEGIN
  IF NOT p_wait THEN
    PERFORM set_config('synchronous_commit', 'off', true);
  END IF;
  FOR i IN 1 .. coalesce(array_length(p_threads, 1), 0) LOOP
    last_first := NULL;
    SELECT first_seq, last_seq, pending INTO last_first, last_seq_now, last_pending
      FROM graph_segments WHERE thread_id = p_threads[i] ORDER BY first_seq DESC LIMIT 1;
    IF last_first IS NULL THEN
      last_seq_now := 0;
      last_pending := 0;
    END IF;
    changed := 0;
    IF p_seqs[i] = last_seq_now + 1 THEN
      tail_pending := last_pending + octet_length(p_lines[i]) + 1;
      INSERT INTO graph_segments
        (thread_id, first_seq, last_seq, updated_at, pending, sealed, status, run_id, data)
      VALUES (p_threads[i], p_seqs[i], p_seqs[i], p_times[i], tail_pending, false,
        p_statuses[i], p_runs[i], p_lines[i])
      ON CONFLICT DO NOTHING;
      GET DIAGNOSTICS changed = ROW_COUNT;
      IF changed = 1 AND tail_pending >= p_seal THEN
        WITH gone AS (
          DELETE FROM graph_segments
          WHERE thread_id = p_threads[i] AND first_seq > 0 AND NOT sealed
          RETURNING first_seq, last_seq, updated_at, status, run_id, data
        )
        SELECT min(first_seq), max(last_seq), string_agg(data, E'\\n' ORDER BY first_seq),
          (array_agg(status ORDER BY first_seq DESC))[1],
          (array_agg(run_id ORDER BY first_seq DESC))[1],
          (array_agg(updated_at ORDER BY first_seq DESC))[1]
        INTO merged_first, merged_last, merged_data, merged_status, merged_run, merged_time
        FROM gone;
        INSERT INTO graph_segments
          (thread_id, first_seq, last_seq, updated_at, pending, sealed, status, run_id, data)
        VALUES (p_threads[i], merged_first, merged_last, merged_time, 0, true,
          merged_status, merged_run, merged_data);
      END IF;
    END IF;
    appended := appended || (changed = 1);
  END LOOP;
  RETURN appended;
END $$;
`;

// The threads whose last entry is "running", kept by triggers so that finding them (the
// server's sweeper does every few seconds) costs what the running threads number, not every
// thread stored. A new version (201) because 200 is applied in existing databases; filled
// from the segments already there. An insert is a thread's newest row unless a later one
// exists (the base snapshot of a compaction is not); a thread whose rows all go (deleted, or
// its tail rows just before they are sealed into one) leaves the set until a row comes back.
const runningThreadsSql = `
CREATE TABLE graph_running_threads (thread_id text COLLATE "C" PRIMARY KEY);
INSERT INTO graph_running_threads (thread_id)
SELECT thread_id FROM (
  SELECT DISTINCT ON (thread_id) thread_id, status FROM graph_segments
  ORDER BY thread_id, first_seq DESC
) AS last WHERE status = 'running';

CREATE FUNCTION yeoul_graph_track_running() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'running' THEN
    INSERT INTO graph_running_threads (thread_id) VALUES (NEW.thread_id) ON CONFLICT DO NOTHING;
  ELSIF NOT EXISTS (
    SELECT 1 FROM graph_segments WHERE thread_id = NEW.thread_id AND first_seq > NEW.first_seq
  ) THEN
    DELETE FROM graph_running_threads WHERE thread_id = NEW.thread_id;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER graph_segments_running AFTER INSERT ON graph_segments
  FOR EACH ROW EXECUTE FUNCTION yeoul_graph_track_running();

CREATE FUNCTION yeoul_graph_forget_running() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM graph_running_threads r
  WHERE r.thread_id IN (SELECT DISTINCT thread_id FROM removed_segments)
    AND NOT EXISTS (SELECT 1 FROM graph_segments s WHERE s.thread_id = r.thread_id);
  RETURN NULL;
END $$;
CREATE TRIGGER graph_segments_forget_running AFTER DELETE ON graph_segments
  REFERENCING OLD TABLE AS removed_segments
  FOR EACH STATEMENT EXECUTE FUNCTION yeoul_graph_forget_running();
`;

/**
 * The append function of migrations 202 and 203, which differ only in name and parameters:
 * 202's takes one entry per element, 203's a row of entries from `p_seqs[i]` to
 * `p_last_seqs[i]`. 202's text must stay byte for byte as shipped (its checksum is tested).
 */
function appendFunctionSql(head: string, lastSeqs: string): string {
  return `${head}) RETURNS boolean[] LANGUAGE plpgsql AS $$
DECLARE
  appended boolean[] := '{}';
  failed_runs text[] := '{}';
  run_key text;
  last_first integer;
  last_seq_now integer;
  last_pending integer;
  last_status text;
  tail_pending integer;
  changed integer;
  sealed_now boolean;
  merged_first integer;
  merged_last integer;
  merged_data text;
  merged_status text;
  merged_run text;
  merged_time bigint;
BEGIN
  IF NOT p_wait THEN
    PERFORM set_config('synchronous_commit', 'off', true);
  END IF;
  FOR i IN 1 .. coalesce(array_length(p_threads, 1), 0) LOOP
    changed := 0;
    run_key := p_threads[i] || E'\\n' || p_runs[i];
    IF NOT (run_key = ANY (failed_runs)) THEN
      last_first := NULL;
      SELECT first_seq, last_seq, pending, status
        INTO last_first, last_seq_now, last_pending, last_status
        FROM graph_segments WHERE thread_id = p_threads[i] ORDER BY first_seq DESC LIMIT 1;
      IF last_first IS NULL THEN
        last_seq_now := 0;
        last_pending := 0;
        last_status := NULL;
      END IF;
      IF p_seqs[i] = last_seq_now + 1 THEN
        tail_pending := last_pending + octet_length(p_lines[i]) + 1;
        INSERT INTO graph_segments
          (thread_id, first_seq, last_seq, updated_at, pending, sealed, status, run_id, data)
        VALUES (p_threads[i], p_seqs[i], ${lastSeqs}[i], p_times[i], tail_pending, false,
          p_statuses[i], p_runs[i], p_lines[i])
        ON CONFLICT DO NOTHING;
        GET DIAGNOSTICS changed = ROW_COUNT;
      END IF;
    END IF;
    IF changed = 1 THEN
      sealed_now := tail_pending >= p_seal;
      IF sealed_now THEN
        WITH gone AS (
          DELETE FROM graph_segments
          WHERE thread_id = p_threads[i] AND first_seq > 0 AND NOT sealed
          RETURNING first_seq, last_seq, updated_at, status, run_id, data
        )
        SELECT min(first_seq), max(last_seq), string_agg(data, E'\\n' ORDER BY first_seq),
          (array_agg(status ORDER BY first_seq DESC))[1],
          (array_agg(run_id ORDER BY first_seq DESC))[1],
          (array_agg(updated_at ORDER BY first_seq DESC))[1]
        INTO merged_first, merged_last, merged_data, merged_status, merged_run, merged_time
        FROM gone;
        INSERT INTO graph_segments
          (thread_id, first_seq, last_seq, updated_at, pending, sealed, status, run_id, data)
        VALUES (p_threads[i], merged_first, merged_last, merged_time, 0, true,
          merged_status, merged_run, merged_data);
      END IF;
      -- The new row is the thread's newest. A seal's deletion may have taken the thread out
      -- of the set (201's deletion trigger), so it is put back whatever the status was.
      IF p_statuses[i] = 'running' THEN
        IF sealed_now OR last_status IS DISTINCT FROM 'running' THEN
          INSERT INTO graph_running_threads (thread_id) VALUES (p_threads[i])
            ON CONFLICT DO NOTHING;
        END IF;
      ELSIF sealed_now OR last_status IS NOT DISTINCT FROM 'running' THEN
        DELETE FROM graph_running_threads WHERE thread_id = p_threads[i];
      END IF;
    ELSE
      failed_runs := failed_runs || run_key;
    END IF;
    appended := appended || (changed = 1);
  END LOOP;
  RETURN appended;
END $$;
`;
}

// One statement per group, with no trigger on the way, so a step costs one round trip: the
// append keeps the set of running threads itself, and only when a thread's status changes (a
// step of a run that was already running leaves it alone), where migration 201's trigger ran a
// function per row.
// Entries of one thread in one call are those of one process, in order (a run in async
// durability sends its steps without waiting): once one of a run's entries fails, its later
// ones in the call fail too, so a run never continues past a step it lost. The deletion
// trigger of 201 stays (deletions are rare: a thread deleted, a compaction, a seal).
const appendInOneStatementSql = `
DROP TRIGGER graph_segments_running ON graph_segments;
DROP FUNCTION yeoul_graph_track_running();

${appendFunctionSql(
  `CREATE OR REPLACE FUNCTION yeoul_graph_append(
  p_threads text[], p_seqs integer[], p_statuses text[], p_runs text[], p_times bigint[],
  p_lines text[], p_seal integer, p_wait boolean
`,
  'p_seqs',
)}`;

// Consecutive entries of one run in one call (a run in async or exit durability hands its
// steps over together) become one tail row: one insert instead of one per entry,
// and a run that starts and ends in the call leaves the set of running threads alone. Row i
// holds the entries p_seqs[i] to p_last_seqs[i], its lines joined by a line break; it is
// appended whole or not at all. The 202 function stays for instances not yet upgraded: its
// rows and these read the same.
const appendRowsSql = `
${appendFunctionSql(
  `CREATE FUNCTION yeoul_graph_append_rows(
  p_threads text[], p_seqs integer[], p_last_seqs integer[], p_statuses text[], p_runs text[],
  p_times bigint[], p_lines text[], p_seal integer, p_wait boolean
`,
  'p_last_seqs',
)}`;

/**
 * The graph's schema in PostgreSQL (versions 200–299): thread logs in segments, instance
 * heartbeats, (201) the set of running threads, and (202) appends that keep that set
 * themselves and stop a run at its first lost step, and (203) a run's consecutive entries in
 * one row. Applied by the composition root with the other modules' migrations.
 */
export const checkpointMigrations: readonly Migration[] = [
  { version: 200, name: 'graph_segments', sql: segmentsSql },
  { version: 201, name: 'graph_running_threads', sql: runningThreadsSql },
  { version: 202, name: 'graph_append_in_one_statement', sql: appendInOneStatementSql },
  { version: 203, name: 'graph_append_rows', sql: appendRowsSql },
];
