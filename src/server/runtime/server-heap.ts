import { setFlagsFromString } from 'node:v8';

/**
 * How much V8 lets the old generation grow past what survived the last full collection,
 * in percent. V8's own choice reaches 300% (a 4× heap) under a steady allocation rate: a
 * server on a 50 MB live heap then held ~200 MB of old space it had already collected
 * (the peer comparison's RSS after 10 000 turns: ~600 MB, ~330 MB at 50%).
 */
export const serverHeapGrowingPercent = 50;

/** The V8 flags `tuneServerHeap` sets, given how Node was started (a flag given there wins). */
export function serverHeapFlags(execArgv: readonly string[], nodeOptions = ''): string[] {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].some((flag) =>
    /^--heap[-_]growing[-_]percent\b/.test(flag),
  );
  return given ? [] : [`--heap-growing-percent=${serverHeapGrowingPercent}`];
}

/**
 * Keeps a long-running server's heap close to its live size (see `serverHeapGrowingPercent`),
 * unless Node was started with its own `--heap-growing-percent` (`nodeOptions` is
 * `NODE_OPTIONS` as read). Called by `yeoul serve` and `yeoul dev` as they start; V8 reads the
 * flag at every full collection.
 */
export function tuneServerHeap(nodeOptions: string | undefined): void {
  for (const flag of serverHeapFlags(process.execArgv, nodeOptions)) setFlagsFromString(flag);
}
