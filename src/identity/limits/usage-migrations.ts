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
-- Per owner: the times (ms since the epoch) of the latest accepted requests, as many as the
-- per-minute limit, in a ring: accepted[next] is the oldest of them (0: a free slot). A request
-- is refused while that one is less than 60 s old (the sliding window).
CREATE TABLE usage_windows (
  owner text COLLATE "C" PRIMARY KEY,
  next integer NOT NULL,
  accepted bigint[] NOT NULL
);

-- The latest p_size times of a window (0s dropped) as a ring of that size starting at 1.
CREATE FUNCTION yeoul_usage_ring(p_times bigint[], p_size integer)
RETURNS bigint[] LANGUAGE sql IMMUTABLE AS $$
  SELECT array_fill(0::bigint, ARRAY[p_size - count(*)::integer])
    || coalesce(array_agg(t ORDER BY t), '{}')
  FROM (SELECT t FROM unnest(p_times) AS t WHERE t > 0 ORDER BY t DESC LIMIT p_size) AS latest
$$;

-- Checks the owner's use against the limits (null = none; p_enforce false = count only) and,
-- unless one is reached, counts one request at p_now: refused is null then, else the limit
-- reached, with used (the tokens under a budget) or freed_at (for the rate: when a place
-- frees). The owner's advisory lock makes the check and the count one step across instances;
-- each statement after it sees what the lock's previous holder committed.
CREATE FUNCTION yeoul_usage_admit(
  p_owner text, p_now bigint, p_day date, p_month date,
  p_per_minute integer, p_per_day bigint, p_per_month bigint, p_enforce boolean,
  OUT refused text, OUT used bigint, OUT freed_at bigint
) LANGUAGE plpgsql AS $$
DECLARE
  ring bigint[];
  ring_next integer;
  month_used bigint;
  day_used bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('yeoul_usage:' || p_owner, 0));
  IF p_enforce AND (p_per_day IS NOT NULL OR p_per_month IS NOT NULL) THEN
    SELECT coalesce(sum(input_tokens + output_tokens), 0),
        coalesce(sum(input_tokens + output_tokens) FILTER (WHERE day = p_day), 0)
      INTO month_used, day_used
      FROM usage_days WHERE owner = p_owner AND day >= p_month AND day <= p_day;
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
  END IF;
  IF p_per_minute IS NOT NULL THEN
    SELECT accepted, next INTO ring, ring_next FROM usage_windows WHERE owner = p_owner;
    IF ring IS NULL OR cardinality(ring) <> p_per_minute THEN
      ring := yeoul_usage_ring(coalesce(ring, '{}'), p_per_minute);
      ring_next := 1;
    END IF;
    IF p_enforce AND ring[ring_next] > p_now - 60000 THEN
      refused := 'requests_per_minute';
      freed_at := ring[ring_next] + 60000;
      RETURN;
    END IF;
    ring[ring_next] := p_now;
    INSERT INTO usage_windows (owner, next, accepted)
      VALUES (p_owner, ring_next % p_per_minute + 1, ring)
      ON CONFLICT (owner) DO UPDATE SET next = excluded.next, accepted = excluded.accepted;
  END IF;
  -- Most admissions count on a day that has a row already: an update, cheaper than an upsert.
  UPDATE usage_days SET requests = requests + 1 WHERE owner = p_owner AND day = p_day;
  IF NOT FOUND THEN
    INSERT INTO usage_days (owner, day, requests) VALUES (p_owner, p_day, 1)
      ON CONFLICT (owner, day) DO UPDATE SET requests = usage_days.requests + 1;
  END IF;
END $$;

-- Takes back a request admitted at p_at whose run never began: one request of its day, and
-- its time in the window (the ring is rebuilt without it).
CREATE FUNCTION yeoul_usage_refund(p_owner text, p_at bigint, p_day date)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  slot integer;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('yeoul_usage:' || p_owner, 0));
  UPDATE usage_days SET requests = requests - 1
    WHERE owner = p_owner AND day = p_day AND requests > 0;
  SELECT array_position(accepted, p_at) INTO slot FROM usage_windows WHERE owner = p_owner;
  IF slot IS NOT NULL THEN
    UPDATE usage_windows
      SET accepted = yeoul_usage_ring(accepted[:slot - 1] || accepted[slot + 1:], cardinality(accepted)),
        next = 1
      WHERE owner = p_owner;
  END IF;
END $$;
`;

/** The usage counts' schema in PostgreSQL (versions 800–899): days, windows, admission. */
export const usageMigrations: readonly Migration[] = [
  { version: 800, name: 'usage_counts', sql: usageSql },
];
