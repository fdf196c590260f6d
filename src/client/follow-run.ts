import { YeoulApiError } from './errors/yeoul-api-error.ts';
import { parseSse, type SseEvent } from './parse-sse.ts';

/** One parsed event of a run's stream (the typed view is the caller's). */
export interface RunEvent {
  event: string;
  data: unknown;
  id: string | undefined;
}

/** How a stream that drops before `done` is rejoined. */
export interface ReconnectPolicy {
  /** Rejoins tried in a row without receiving an event before giving up (default 5). */
  attempts?: number;
  /** The wait before the first rejoin, doubled for each further one up to 5 s (default 250 ms). */
  delayMs?: number;
}

/** What `followRun` needs: how to start the stream and how to rejoin it after an event id. */
export interface FollowRunOptions {
  start: () => Promise<Response>;
  rejoin: (lastEventId: string | undefined) => Promise<Response>;
  /** The id of the last event the caller already has (a join that starts after it). */
  lastEventId?: string;
  reconnect?: ReconnectPolicy;
  signal?: AbortSignal;
}

const longestDelayMs = 5_000;

/**
 * A run's events as they come, ending after `done`. When the connection drops first, the
 * run is rejoined with the id of the last event received (`Last-Event-ID`), so nothing is
 * missed or repeated. A connection the server ends cleanly after an `error` event is the
 * run's end too (a run that failed before its answer).
 */
export async function* followRun(options: FollowRunOptions): AsyncGenerator<RunEvent, void> {
  const attempts = options.reconnect?.attempts ?? 5;
  const delayMs = options.reconnect?.delayMs ?? 250;
  let response = await options.start();
  let lastEventId = options.lastEventId;
  let lastEvent: string | undefined;
  let failedRejoins = 0;
  // Why the last connection or rejoin failed: the cause when giving up.
  let lastFailure: unknown;
  for (;;) {
    try {
      for await (const raw of parseSse(bodyOf(response))) {
        const event = parseEvent(raw);
        if (event.id !== undefined) lastEventId = event.id;
        lastEvent = event.event;
        failedRejoins = 0;
        yield event;
        if (event.event === 'done') return;
      }
      if (lastEvent === 'error') return;
    } catch (error) {
      if (options.signal?.aborted || error instanceof YeoulApiError) throw error;
      lastFailure = error;
    }
    response = await rejoinWithRetries();
  }

  async function rejoinWithRetries(): Promise<Response> {
    for (;;) {
      failedRejoins += 1;
      if (failedRejoins > attempts) {
        throw new YeoulApiError({
          status: 0,
          code: 'stream_interrupted',
          message: `the stream ended before its done event and ${attempts} rejoins brought nothing`,
          cause: lastFailure,
        });
      }
      await sleep(Math.min(delayMs * 2 ** (failedRejoins - 1), longestDelayMs), options.signal);
      try {
        return await options.rejoin(lastEventId);
      } catch (error) {
        // The server answered (no run to join, no access): rejoining again will not help.
        if (error instanceof YeoulApiError && error.status !== 0) throw error;
        if (options.signal?.aborted) throw error;
        lastFailure = error;
      }
    }
  }
}

function bodyOf(response: Response): ReadableStream<Uint8Array> {
  if (response.body === null) throw new TypeError('the stream answer has no body');
  return response.body;
}

function parseEvent(raw: SseEvent): RunEvent {
  try {
    return { event: raw.event, data: JSON.parse(raw.data), id: raw.id };
  } catch (error) {
    throw new YeoulApiError({
      status: 0,
      code: 'invalid_event',
      message: `the ${raw.event} event's data is not JSON: ${raw.data.slice(0, 200)}`,
      cause: error,
    });
  }
}

function sleep(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, milliseconds);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}
