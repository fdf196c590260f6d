import type { Migration } from '../../core/index.ts';

const usageSql = `
-- Per owner and UTC day: accepted run requests, and the model calls and tokens of their runs.
CREATE TABLE usage_days (
  owner text COLLATE "C" NOT NULL,
  day date NOT NULL,
  requests bigint NOT NULL DEFAULT 0,
  llm_calls bigint NOT NULL DEFAULT 0,
  input_tokens bigint NOT NULL DEFAULT 0,
  output_tokens bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (owner, day)
);
CREATE INDEX usage_days_day ON usage_days (day);
-- Per owner: a ring of size slots (the per-minute limit) holding the times (ms since the
-- epoch) of the latest accepted requests, one row per slot used (a missing slot is free);
-- next is the slot of the oldest, the one the next request takes. A request is refused while
-- that one is less than 60 s old (the sliding window). One slot read and written per request,
-- whatever the limit.
CREATE TABLE usage_windows (
  owner text COLLATE "C" PRIMARY KEY,
  size integer NOT NULL,
  next integer NOT NULL
);
CREATE TABLE usage_window_slots (
  owner text COLLATE "C" NOT NULL,
  slot integer NOT NULL,
  at bigint NOT NULL,
  PRIMARY KEY (owner, slot)
);

-- Lays the owner's ring out again with p_size slots: its latest times (but one p_without, if
-- given) in order, the oldest first after the free slots, next at slot 1.
CREATE FUNCTION yeoul_usage_rebuild(p_owner text, p_size integer, p_without bigint)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  kept bigint[];
  found_at integer;
BEGIN
  SELECT coalesce(array_agg(at ORDER BY at), '{}') INTO kept
    FROM usage_window_slots WHERE owner = p_owner;
  found_at := array_position(kept, p_without);
  IF found_at IS NOT NULL THEN
    kept := kept[:found_at - 1] || kept[found_at + 1:];
  END IF;
  kept := kept[greatest(cardinality(kept) - p_size + 1, 1):];
  DELETE FROM usage_window_slots WHERE owner = p_owner;
  INSERT INTO usage_window_slots (owner, slot, at)
    SELECT p_owner, p_size - cardinality(kept) + position, at
    FROM unnest(kept) WITH ORDINALITY AS entries (at, position);
  INSERT INTO usage_windows (owner, size, next) VALUES (p_owner, p_size, 1)
    ON CONFLICT (owner) DO UPDATE SET size = excluded.size, next = 1;
END $$;

-- Checks the owner's use against the limits (null = none; p_enforce false = count only) and,
-- unless one is reached, counts one request at p_now: refused is null then, else the limit
-- reached, with used (the tokens under a budget) or freed_at (for the rate: when a place
-- frees). The owner's advisory lock makes the window's check and count one step across
-- instances: each statement after it sees what the lock's previous holder committed. The
-- budgets are read as the lock is taken (runs end, and add tokens, whenever they end).
CREATE FUNCTION yeoul_usage_admit(
  p_owner text, p_now bigint, p_day date, p_month date,
  p_per_minute integer, p_per_day bigint, p_per_month bigint, p_enforce boolean,
  OUT refused text, OUT used bigint, OUT freed_at bigint
) LANGUAGE plpgsql AS $$
DECLARE
  month_used bigint;
  day_used bigint;
  slot_taken integer;
BEGIN
  IF NOT p_enforce OR (p_per_day IS NULL AND p_per_month IS NULL) THEN
    PERFORM pg_advisory_xact_lock(hashtextextended('yeoul_usage:' || p_owner, 0));
  ELSE
    SELECT spent.month, spent.today INTO month_used, day_used
      FROM pg_advisory_xact_lock(hashtextextended('yeoul_usage:' || p_owner, 0)) AS locked,
        LATERAL (
          SELECT coalesce(sum(input_tokens + output_tokens), 0) AS month,
            coalesce(sum(input_tokens + output_tokens) FILTER (WHERE day = p_day), 0) AS today
          FROM usage_days WHERE owner = p_owner AND day >= p_month AND day <= p_day
        ) AS spent;
  END IF;
  IF month_used >= p_per_month THEN
    refused := 'tokens_per_month';
    used := month_used;
    RETURN;
  END IF;
  IF day_used >= p_per_day THEN
    refused := 'tokens_per_day';
    used := day_used;
    RETURN;
  END IF;
  IF p_per_minute IS NOT NULL THEN
    FOR attempt IN 1..2 LOOP
      -- The slot of the oldest time is taken when it is free or 60 s old, and next moves on.
      WITH moved AS (
        UPDATE usage_windows AS ring SET next = next % size + 1
          WHERE owner = p_owner AND size = p_per_minute AND (NOT p_enforce OR coalesce((
            SELECT at FROM usage_window_slots AS taken
            WHERE taken.owner = p_owner AND taken.slot = ring.next
          ), 0) <= p_now - 60000)
          RETURNING (next + size - 2) % size + 1 AS slot
      ), written AS (
        INSERT INTO usage_window_slots (owner, slot, at) SELECT p_owner, slot, p_now FROM moved
          ON CONFLICT (owner, slot) DO UPDATE SET at = excluded.at
          RETURNING slot
      )
      SELECT slot INTO slot_taken FROM written;
      EXIT WHEN slot_taken IS NOT NULL;
      SELECT next INTO slot_taken FROM usage_windows WHERE owner = p_owner AND size = p_per_minute;
      IF FOUND THEN
        -- Refused: the oldest of the window is under 60 s old.
        SELECT at + 60000 INTO freed_at
          FROM usage_window_slots WHERE owner = p_owner AND slot = slot_taken;
        refused := 'requests_per_minute';
        RETURN;
      END IF;
      -- A new owner, or the limit changed: the ring keeps the latest times that fit.
      PERFORM yeoul_usage_rebuild(p_owner, p_per_minute, NULL);
    END LOOP;
  END IF;
  -- Most admissions count on a day that has a row already: an update, cheaper than an upsert.
  UPDATE usage_days SET requests = requests + 1 WHERE owner = p_owner AND day = p_day;
  IF NOT FOUND THEN
    INSERT INTO usage_days (owner, day, requests) VALUES (p_owner, p_day, 1)
      ON CONFLICT (owner, day) DO UPDATE SET requests = usage_days.requests + 1;
  END IF;
END $$;

-- Takes back a request admitted at p_at whose run never began: one request of its day, and
-- its time in the window (the ring is laid out again without it).
CREATE FUNCTION yeoul_usage_refund(p_owner text, p_at bigint, p_day date)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  ring_size integer;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('yeoul_usage:' || p_owner, 0));
  UPDATE usage_days SET requests = requests - 1
    WHERE owner = p_owner AND day = p_day AND requests > 0;
  SELECT size INTO ring_size FROM usage_windows WHERE owner = p_owner;
  IF FOUND AND EXISTS (SELECT FROM usage_window_slots WHERE owner = p_owner AND at = p_at) THEN
    PERFORM yeoul_usage_rebuild(p_owner, ring_size, p_at);
  END IF;
END $$;
`;

/** The usage counts' schema in PostgreSQL (versions 800–899): days, windows, admission. */
export const usageMigrations: readonly Migration[] = [
  { version: 800, name: 'usage_counts', sql: usageSql },
];
