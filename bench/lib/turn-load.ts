// The load of the peer comparison in `npm run bench:server`: `count` turns kept `connections`
// at a time (each of the `connections` loops starts its next turn when its last one ends, as
// autocannon's connections do), timed turn by turn. A turn that throws, answers non-2xx or
// answers without the expected text counts as an error. Stops early at `maxSeconds`.
import { percentile } from './stats.ts';

/** One turn's outcome as the load sees it. */
export interface TurnSample {
  answer: string;
  firstTokenMs?: number;
}

/** What a load reports. */
export interface TurnLoadSummary {
  connections: number;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** Streams only: time to the first answer token, p50 and p99. */
  firstTokenP50Ms?: number;
  firstTokenP99Ms?: number;
  /** The first error's message, to say what went wrong. */
  firstError?: string;
}

/** Runs the turns and summarizes them; `expected` must appear in every answer. */
export async function runTurns(options: {
  count: number;
  connections: number;
  turn: () => Promise<TurnSample>;
  expected: string;
  maxSeconds: number;
}): Promise<TurnLoadSummary> {
  const latencies: number[] = [];
  const firstTokens: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let started = 0;
  const startedAt = performance.now();
  const deadline = startedAt + options.maxSeconds * 1000;
  const loop = async () => {
    while (started < options.count && performance.now() < deadline) {
      started += 1;
      const turnStartedAt = performance.now();
      try {
        const sample = await options.turn();
        if (!sample.answer.includes(options.expected))
          throw new Error(`unexpected answer: ${sample.answer.slice(0, 200)}`);
        latencies.push(performance.now() - turnStartedAt);
        if (sample.firstTokenMs !== undefined) firstTokens.push(sample.firstTokenMs);
      } catch (error) {
        errors += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, loop));
  const seconds = (performance.now() - startedAt) / 1000;
  return {
    connections: options.connections,
    requests: latencies.length + errors,
    requestsPerSecond: Math.round((latencies.length / seconds) * 10) / 10,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    errors,
    ...(firstTokens.length === 0
      ? {}
      : {
          firstTokenP50Ms: percentile(firstTokens, 0.5),
          firstTokenP99Ms: percentile(firstTokens, 0.99),
        }),
    ...(firstError === undefined ? {} : { firstError }),
  };
}
