/** Percentile by the nearest-rank method, rounded to 0.1. */
export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(fraction * sorted.length));
  return Math.round((sorted[rank - 1] as number) * 10) / 10;
}

/** p50 and p99 of a list of samples. */
export function summarize(values: readonly number[]): { p50: number; p99: number } {
  return { p50: percentile(values, 0.5), p99: percentile(values, 0.99) };
}

/** Microseconds elapsed since `start` (from process.hrtime.bigint()). */
export function microsecondsSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1000;
}

/** A ratio rounded to 2 decimals. */
export function ratio(numerator: number, denominator: number): number {
  return Math.round((numerator / denominator) * 100) / 100;
}

/** One benchmark target as the last JSON line reports it. */
export interface Target {
  value: number;
  goal: number;
  better: 'higher' | 'lower';
  met: boolean;
}

/** Builds a target entry, with `met` computed from the goal and direction. */
export function target(value: number, goal: number, better: 'higher' | 'lower'): Target {
  return { value, goal, better, met: better === 'higher' ? value >= goal : value <= goal };
}
