import { type PostgresPool, queryPostgres } from '../../core/index.ts';
import type { RunStream, StreamEvent } from '../runs/run-streams.ts';

/** The NOTIFY channel that says runs got events (payload: their keys, comma-separated, or `*`). */
export const eventsChannel = 'yeoul_run_events';

/** The event name of a run's last row: no more events will come. */
export const endOfRun = '#end';

/** One row of `server_run_events` waiting to be written. */
interface RelayRow {
  runKey: string;
  sessionId: string;
  firstN: number;
  lastN: number;
  event: string;
  items: unknown[];
}

/** How long events wait to be written with others; tokens of that window share a row. */
const flushDelayMs = 25;
/** Rows kept while the database is unreachable; older ones are dropped beyond this. */
const maxBufferedRows = 20_000;

const insertSql = `
WITH added AS (
  INSERT INTO server_run_events (run_key, first_n, last_n, session_id, instance_id, event, data)
  SELECT run_key, first_n, last_n, session_id, $5, event, data
  FROM unnest($1::text[], $2::int[], $3::int[], $4::text[], $6::text[], $7::text[])
    WITH ORDINALITY AS r(run_key, first_n, last_n, session_id, event, data, position)
  ORDER BY position
  ON CONFLICT DO NOTHING
)
SELECT pg_notify('${eventsChannel}', $8)`;

function numberOf(entry: StreamEvent): number {
  return Number(entry.id.slice(entry.id.lastIndexOf(':') + 1));
}

/** The event name a row is stored under: a token's with its answer's id (`token@ID`). */
function relayedEventName(entry: Pick<StreamEvent, 'event' | 'answerId'>): string {
  return entry.answerId === undefined ? entry.event : `${entry.event}@${entry.answerId}`;
}

/** An event as a row names it: its name, and a token's answer id. */
export function eventOfRelayed(name: string): Pick<StreamEvent, 'event' | 'answerId'> {
  const at = name.indexOf('@');
  return at === -1 ? { event: name } : { event: name.slice(0, at), answerId: name.slice(at + 1) };
}

/**
 * Writes the events of this instance's runs to `server_run_events`, so that a client can
 * join a run through any instance. Events are written together every 25 ms (at once for a
 * run's last ones), in one statement for every run going, and consecutive token events of a
 * run (of one answer) share one row: a streamed turn costs a few rows, not one per token. Each write ends
 * with a NOTIFY naming the runs it touched. While the database is unreachable rows wait (up
 * to 20 000) and are written once it answers again.
 */
export class EventRelay {
  #pool: PostgresPool;
  #instanceId: string;
  #buffer: RelayRow[] = [];
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> | undefined;
  #failures = 0;

  constructor(pool: PostgresPool, instanceId: string) {
    this.#pool = pool;
    this.#instanceId = instanceId;
  }

  /** Relays every event of `stream` from now on, and its end. */
  record(stream: RunStream): void {
    stream.follow(
      undefined,
      (entry) => this.#add(stream, entry),
      () => {
        // A request refused before its run began has nothing to relay.
        if (stream.events.length === 0) return;
        const n = stream.firstN + stream.events.length;
        this.#push({
          runKey: stream.key,
          sessionId: stream.sessionId,
          firstN: n,
          lastN: n,
          event: endOfRun,
          items: [],
        });
        this.#schedule(0);
      },
    );
  }

  /** Writes what is waiting (best effort, for shutting down). */
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#writing;
    if (this.#buffer.length > 0) await this.#write();
  }

  #add(stream: RunStream, entry: StreamEvent): void {
    const n = numberOf(entry);
    const event = relayedEventName(entry);
    const last = this.#buffer.at(-1);
    if (
      entry.event === 'token' &&
      last !== undefined &&
      last.runKey === stream.key &&
      last.event === event &&
      last.lastN + 1 === n
    ) {
      last.lastN = n;
      last.items.push(entry.data);
    } else {
      this.#push({
        runKey: stream.key,
        sessionId: stream.sessionId,
        firstN: n,
        lastN: n,
        event,
        items: [entry.data],
      });
    }
    // A run's first and last events go out at once: joiners look for the first one.
    const urgent = n === 1 || entry.event === 'done' || entry.event === 'error';
    this.#schedule(urgent ? 0 : flushDelayMs);
  }

  #push(row: RelayRow): void {
    this.#buffer.push(row);
    if (this.#buffer.length > maxBufferedRows)
      this.#buffer.splice(0, this.#buffer.length - maxBufferedRows);
  }

  #schedule(delayMs: number): void {
    if (this.#writing !== undefined) return; // the write in progress schedules the next
    if (this.#timer !== undefined && delayMs > 0) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#write();
    }, delayMs);
    this.#timer.unref();
  }

  async #write(): Promise<void> {
    if (this.#writing !== undefined || this.#buffer.length === 0) return this.#writing;
    const rows = this.#buffer;
    this.#buffer = [];
    const keys = [...new Set(rows.map((row) => row.runKey))].join(',');
    this.#writing = queryPostgres(this.#pool, insertSql, [
      rows.map((row) => row.runKey),
      rows.map((row) => row.firstN),
      rows.map((row) => row.lastN),
      rows.map((row) => row.sessionId),
      this.#instanceId,
      rows.map((row) => row.event),
      rows.map((row) => JSON.stringify(row.items)),
      keys.length > 7000 ? '*' : keys,
    ]).then(
      () => {
        this.#failures = 0;
      },
      () => {
        // Kept for the next try, before anything that came meanwhile.
        this.#buffer = [...rows, ...this.#buffer].slice(-maxBufferedRows);
        this.#failures += 1;
      },
    );
    await this.#writing;
    this.#writing = undefined;
    if (this.#buffer.length > 0) this.#schedule(this.#failures > 0 ? 1000 : flushDelayMs);
  }
}
