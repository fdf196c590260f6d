// The statements PostgresAppendBatch sends (postgres-append-batch.ts): the group's function
// call, and the one-row statements a single row of one thread takes instead. Each starts by
// telling the commit whether to wait for the WAL ($8).

export const appendRowsSql = {
  name: 'yeoul_graph_append_rows',
  text: 'SELECT yeoul_graph_append_rows($1, $2, $3, $4, $5, $6, $7, $8, $9) AS appended',
};

// The set_config every statement starts with: the commit waits for the WAL only when $8 says so.
const commitWaitCte = `cfg AS (
    SELECT set_config('synchronous_commit', CASE WHEN $8::boolean THEN 'on' ELSE 'off' END, true) AS v
  )`;

// One row in one statement, without the function's per-call cost (a sync step, the most
// common call): the row is inserted when its first seq is the thread's next and it does not
// fill the tail up to a seal (those go to the function, which seals); the set of running
// threads changes with the thread's status. `set_config` is evaluated before the insert reads
// `cfg`, so the commit waits for the WAL only when $8 says so.
export const appendOneSql = {
  name: 'yeoul_graph_append_one',
  text: `WITH ${commitWaitCte},
  last AS (
    SELECT last_seq, pending, status FROM graph_segments
    WHERE thread_id = $1 ORDER BY first_seq DESC LIMIT 1
  ),
  tail AS (
    SELECT coalesce((SELECT last_seq FROM last), 0) + 1 = $2 AS in_order,
      coalesce((SELECT pending FROM last), 0) + octet_length($7) + 1 AS pending
  ),
  ins AS (
    INSERT INTO graph_segments
      (thread_id, first_seq, last_seq, updated_at, pending, sealed, status, run_id, data)
    SELECT $1, $2, $3, $6, tail.pending, false, $4, $5, $7 FROM tail, cfg
    WHERE tail.in_order AND tail.pending < $9 AND cfg.v IS NOT NULL
    ON CONFLICT DO NOTHING
    RETURNING status
  ),
  joined AS (
    INSERT INTO graph_running_threads (thread_id)
    SELECT $1 FROM ins
    WHERE ins.status = 'running' AND (SELECT status FROM last) IS DISTINCT FROM 'running'
    ON CONFLICT DO NOTHING
  ),
  left_set AS (
    DELETE FROM graph_running_threads
    WHERE thread_id = $1 AND (SELECT status FROM last) = 'running'
      AND EXISTS (SELECT 1 FROM ins WHERE ins.status <> 'running')
  )
  SELECT EXISTS (SELECT 1 FROM ins) AS appended,
    (SELECT in_order AND pending >= $9 FROM tail) AS seals,
    (SELECT pending FROM tail) AS pending`,
};

// A thread's first row (its seq 1), when the thread has no row at all: a plain insert whose
// row count says whether it went in, and the thread joins the set of running threads. Should
// another writer's first row win the race (the insert then does nothing), the set may keep
// the thread although its last row is not running: the set's readers check the status.
export const appendFirstSql = {
  name: 'yeoul_graph_append_first',
  text: `WITH ${commitWaitCte},
  joined AS (
    INSERT INTO graph_running_threads (thread_id)
    SELECT $1 FROM cfg
    WHERE cfg.v IS NOT NULL AND $4 = 'running'
      AND NOT EXISTS (SELECT 1 FROM graph_segments WHERE thread_id = $1)
    ON CONFLICT DO NOTHING
  )
  INSERT INTO graph_segments
    (thread_id, first_seq, last_seq, updated_at, pending, sealed, status, run_id, data)
  SELECT $1, 1, $3, $6, $9, false, $4, $5, $7 FROM cfg
  WHERE cfg.v IS NOT NULL AND $2 = 1
    AND NOT EXISTS (SELECT 1 FROM graph_segments WHERE thread_id = $1)
  ON CONFLICT DO NOTHING`,
};

// The next row of a thread whose last row this process wrote, still running: the row it knows
// ($10 its first seq, ending at $2 - 1, $11 its pending bytes, unsealed, running) must be there
// — a point lookup, no search for the thread's last row — and the set of running threads
// already holds the thread. Without that row (another writer, a rollback, a compaction) nothing
// is inserted and the full statement above decides.
const followingRowInsert = `INSERT INTO graph_segments
    (thread_id, first_seq, last_seq, updated_at, pending, sealed, status, run_id, data)
  SELECT $1, $2, $3, $6, $9, false, $4, $5, $7 FROM cfg
  WHERE cfg.v IS NOT NULL AND EXISTS (
    SELECT 1 FROM graph_segments WHERE thread_id = $1 AND first_seq = $10
      AND last_seq = $2 - 1 AND pending = $11 AND NOT sealed AND status = 'running'
  )
  ON CONFLICT DO NOTHING`;

// A running row (most steps of a run): a plain insert, whose row count says whether it went
// in, with no row to describe and send back.
export const appendNextSql = {
  name: 'yeoul_graph_append_next_row',
  text: `WITH ${commitWaitCte}
  ${followingRowInsert}`,
};

// A row whose status is no longer running also takes the thread out of the set of running
// threads, once the row went in.
export const appendEndSql = {
  name: 'yeoul_graph_append_end',
  text: `WITH ${commitWaitCte},
  ins AS (
    ${followingRowInsert}
    RETURNING status
  ),
  left_set AS (
    DELETE FROM graph_running_threads
    WHERE thread_id = $1 AND EXISTS (SELECT 1 FROM ins)
  )
  SELECT EXISTS (SELECT 1 FROM ins) AS appended`,
};
