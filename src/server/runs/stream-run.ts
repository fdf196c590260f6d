import type { RouteContext } from '../routes/route-context.ts';
import { goingRunStatuses, type RunRecord } from './run-store.ts';
import type { FollowableStream, StreamEvent } from './run-streams.ts';

/** Where a run's events go: an SSE response. */
export interface RunEventSink {
  write(entry: StreamEvent): void;
  close(): void;
  /** A comment line, while the run waits for its turn. */
  ping(): void;
  /** Whether the client has gone. */
  closed(): boolean;
}

/** How often a stream whose run is not here yet looks again (and pings). */
const lookEveryMs = 1_000;

/**
 * Follows a run's events into `sink`: from its first (or after `lastEventId`), then live
 * until `done`. A run that waits for its turn gets `: ping` lines until it starts; one going
 * in another instance is followed through the relay; one that ended replays its kept events,
 * or sends at least its `done` (its `error` when it has no answer) and closes. Returns the stop.
 */
export function streamRun(
  context: Pick<RouteContext, 'runs' | 'streams'>,
  run: RunRecord,
  lastEventId: string | undefined,
  sink: RunEventSink,
): () => void {
  const { runs, streams } = context;
  const { runId } = run;
  let stop: () => void = () => undefined;
  let stopped = false;
  const follow = (stream: FollowableStream) => {
    stop = stream.follow(lastEventId, sink.write, sink.close);
  };
  const attach = async () => {
    // A run waiting for its turn says so at once (the writer pings on while it stays quiet).
    if (run.status === 'queued') sink.ping();
    for (;;) {
      if (stopped || sink.closed()) return;
      const live = runs.live(runId)?.stream;
      if (live !== undefined) return follow(live);
      const current = await runs.store.get(runId);
      if (current === undefined) return sink.close();
      if (!goingRunStatuses.includes(current.status)) {
        const kept = await streams.joinable(current.sessionId, `${runId}:0`);
        if (kept !== undefined && isStreamOf(kept, runId)) return follow(kept);
        return sendEnd(current, sink);
      }
      if (current.status === 'running' && current.instanceId !== runs.instanceId) {
        const relayed = await streams.joinable(current.sessionId, lastEventId);
        if (relayed !== undefined) return follow(relayed);
      }
      sink.ping();
      await runs.nextChange(runId, lookEveryMs);
    }
  };
  void attach().catch(() => sink.close());
  return () => {
    stopped = true;
    stop();
  };
}

/** Whether a joinable stream is this run's (a session's current stream may be a later run's). */
function isStreamOf(stream: FollowableStream, runId: string): boolean {
  const owns = (stream as { owns?: (id: string) => boolean }).owns;
  return owns === undefined || owns.call(stream, `${runId}:0`);
}

/** The end of a run whose events are gone: its answer as `done`, else its failure as `error`. */
function sendEnd(run: RunRecord, sink: RunEventSink): void {
  if (run.result !== undefined)
    sink.write({ id: `${run.runId}:end`, event: 'done', data: run.result });
  else if (run.error !== undefined) {
    sink.write({ id: `${run.runId}:end`, event: 'error', data: run.error });
  }
  sink.close();
}
