import { readEvents } from './yeoul-process.ts';

/** An instance the load goes to. */
export interface LoadTarget {
  name: string;
  url: string;
}

/** How one turn of the load ended. */
export interface TurnOutcome {
  sessionId: string;
  /** The user message (unique over the whole load). */
  text: string;
  /** The instance that was asked. */
  via: string;
  kind: 'invoke' | 'stream';
  /** The HTTP status; 0 when no answer came (refused, reset, or past the time limit). */
  status: number;
  /** The error code of a refusal, or of a stream's `error` event. */
  code?: string;
  /** That error's message. */
  message?: string;
  /** The run's status in the answer (`published`…), when there was one. */
  runStatus?: string;
  /** Why nothing usable came back (a network error, a time-out, a stream cut short). */
  failure?: string;
  ms: number;
}

/** A load running until `stop`. */
export interface SteadyLoad {
  /** Every turn ended so far. */
  readonly outcomes: readonly TurnOutcome[];
  /** Stops sending, waits for the turns in flight, and returns every outcome. */
  stop(): Promise<TurnOutcome[]>;
}

/** What the load sends and where. */
export interface SteadyLoadOptions {
  /** The instances, asked in turn (read at each turn: a killed one can be left out). */
  targets: () => LoadTarget[];
  /** Turns in flight at once, each worker on a session of its own. */
  workers: number;
  /** Prefix of the session ids and messages (one per scenario). */
  prefix: string;
  /** A turn with no answer by then counts as hung. */
  timeoutMs: number;
}

/**
 * A steady load of turns, half invoked and half streamed, each worker on its own session and
 * going round the instances, so that a fault always meets turns in flight everywhere.
 * @example
 * const load = startSteadyLoad({ targets: () => [a, b], workers: 8, prefix: 'stop', timeoutMs: 40_000 });
 * const outcomes = await load.stop();
 */
export function startSteadyLoad(options: SteadyLoadOptions): SteadyLoad {
  const outcomes: TurnOutcome[] = [];
  let stopped = false;
  const worker = async (index: number) => {
    const sessionId = `${options.prefix}-w${index}`;
    for (let turn = 0; !stopped; turn += 1) {
      const targets = options.targets();
      const target = targets[(index + turn) % targets.length] as LoadTarget;
      const kind = (index + turn) % 2 === 0 ? 'invoke' : 'stream';
      const text = `${options.prefix} w${index} turn ${turn}`;
      const outcome = await sendTurn(target, kind, sessionId, text, options.timeoutMs);
      outcomes.push(outcome);
      // A refused turn is tried again a little later, as a client would.
      await new Promise((resolve) => setTimeout(resolve, outcome.runStatus ? 20 : 200));
    }
  };
  const running = Array.from({ length: options.workers }, (_, index) => worker(index));
  return {
    outcomes,
    async stop() {
      stopped = true;
      await Promise.all(running);
      return outcomes;
    },
  };
}

/** Sends one turn and says how it ended; never throws. */
export async function sendTurn(
  target: LoadTarget,
  kind: 'invoke' | 'stream',
  sessionId: string,
  text: string,
  timeoutMs: number,
): Promise<TurnOutcome> {
  const started = performance.now();
  const outcome: TurnOutcome = { sessionId, text, via: target.name, kind, status: 0, ms: 0 };
  try {
    const response = await fetch(`${target.url}/api/agent/${kind}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: text, sessionId }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    outcome.status = response.status;
    const streamed = response.headers.get('content-type')?.startsWith('text/event-stream');
    if (!streamed) {
      const body = (await response.json()) as {
        status?: string;
        error?: { code?: string; message?: string };
      };
      if (body.error?.code) outcome.code = body.error.code;
      if (body.error?.message) outcome.message = body.error.message;
      if (response.status === 200 && body.status) outcome.runStatus = body.status;
    } else {
      const events = await readEvents(response, (event) => event.event === 'done');
      const failed = events.find((event) => event.event === 'error');
      const done = events.find((event) => event.event === 'done');
      if (failed) {
        const data = failed.data as { code?: string; message?: string };
        outcome.code = data.code ?? 'unknown';
        if (data.message) outcome.message = data.message;
      }
      if (done) outcome.runStatus = (done.data as { status?: string }).status ?? 'unknown';
      else if (!failed) outcome.failure = 'the stream ended without done or error';
    }
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    outcome.failure =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : `${(error as Error).message}${cause ? ` (${cause})` : ''}`;
  }
  outcome.ms = Math.round(performance.now() - started);
  return outcome;
}

/** Counts of a load's outcomes, for reports: statuses, codes and failures. */
export function tallyOutcomes(outcomes: readonly TurnOutcome[]): Record<string, number> {
  const tally: Record<string, number> = { sent: outcomes.length };
  for (const outcome of outcomes) {
    const key = outcome.failure
      ? `failed: ${outcome.failure}`
      : `${outcome.status}${outcome.code ? ` ${outcome.code}` : ''}${outcome.runStatus ? ` ${outcome.runStatus}` : ''}`;
    tally[key] = (tally[key] ?? 0) + 1;
  }
  return tally;
}
