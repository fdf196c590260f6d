import { type PostgresPool, queryPostgres } from '../../core/index.ts';
import type { FollowableStream, StreamEvent } from '../runs/run-streams.ts';
import { endOfRun, eventOfRelayed, eventsChannel } from './event-relay.ts';
import type { PostgresNotifications } from './postgres-notifications.ts';

/** What following a run relayed through the database needs. */
export interface RemoteStreamDeps {
  pool: PostgresPool;
  notifications: PostgresNotifications;
  /** Whether the instance running the run is alive (a dead one's run never ends). */
  isAlive(instanceId: string): Promise<boolean>;
  /** How often to look again without a notification (default 1 000 ms). */
  pollMs?: number;
}

/** A run of another instance, as `server_run_events` has it. */
export interface RemoteRun {
  runKey: string;
  instanceId: string;
}

interface EventRow extends Record<string, unknown> {
  first_n: number;
  last_n: number;
  event: string;
  data: string;
}

/**
 * A run going (or just finished) in another instance, followed through the database: the
 * events after `Last-Event-ID` read from `server_run_events`, then more each time the relay
 * NOTIFYs the run's key (or every `pollMs`), with the same ids `<key>:<n>` as the instance
 * running it sends, until the run's end row, or until that instance is found dead.
 */
export class RemoteRunStream implements FollowableStream {
  #deps: RemoteStreamDeps;
  #run: RemoteRun;

  constructor(deps: RemoteStreamDeps, run: RemoteRun) {
    this.#deps = deps;
    this.#run = run;
  }

  follow(
    lastEventId: string | undefined,
    onEvent: (event: StreamEvent) => void,
    onEnd: () => void,
  ): () => void {
    const { runKey, instanceId } = this.#run;
    const prefix = `${runKey}:`;
    let delivered = lastEventId?.startsWith(prefix)
      ? Number(lastEventId.slice(prefix.length)) || 0
      : 0;
    let stopped = false;
    let reading: Promise<void> | undefined;
    let again = false;
    let polls = 0;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      unsubscribe();
      unsubscribeReconnect();
    };
    const end = () => {
      if (stopped) return;
      stop();
      onEnd();
    };
    const read = async () => {
      const { rows } = await queryPostgres<EventRow>(
        this.#deps.pool,
        `SELECT first_n, last_n, event, data FROM server_run_events
         WHERE run_key = $1 AND last_n > $2 ORDER BY first_n`,
        [runKey, delivered],
      );
      for (const row of rows) {
        if (stopped) return;
        if (row.event === endOfRun) return end();
        const items = JSON.parse(row.data) as unknown[];
        items.forEach((data, index) => {
          const n = row.first_n + index;
          if (n <= delivered || stopped) return;
          delivered = n;
          onEvent({ id: `${runKey}:${n}`, ...eventOfRelayed(row.event), data });
        });
      }
      // No end row yet: a run whose instance died will never write one.
      polls += 1;
      if (rows.length === 0 && polls % 3 === 0 && !(await this.#deps.isAlive(instanceId))) end();
    };
    const wake = () => {
      if (stopped) return;
      if (reading !== undefined) {
        again = true;
        return;
      }
      reading = read()
        .catch(() => undefined)
        .finally(() => {
          reading = undefined;
          if (again) {
            again = false;
            wake();
          }
        });
    };
    const unsubscribe = this.#deps.notifications.on(eventsChannel, (payload) => {
      if (payload === '*' || payload.split(',').includes(runKey)) wake();
    });
    const unsubscribeReconnect = this.#deps.notifications.onReconnect(wake);
    const timer = setInterval(wake, this.#deps.pollMs ?? 1000);
    timer.unref();
    wake();
    return stop;
  }
}
