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

/**
 * glibc's malloc gives every thread that allocates an arena of its own, up to eight per
 * core, and keeps what each arena once held: a server's native memory (V8's compiler zones,
 * SQLite, libuv's and the workers' threads) spreads over many arenas that stay resident. Two
 * arenas hold the same work in ~30 MB less (the peer comparison's RSS after 10 000 turns:
 * ~410 MB with glibc's default, ~380 MB with two) at the same throughput. The variable is
 * read once, when the process starts; other C libraries ignore it.
 */
export const serverMallocArenas = '2';

/** What `restartWithServerMalloc` adds to the environment: nothing when already set or off Linux. */
export function serverMallocEnvironment(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  return platform === 'linux' && env.MALLOC_ARENA_MAX === undefined
    ? { MALLOC_ARENA_MAX: serverMallocArenas }
    : {};
}

/**
 * Starts this process again in place (execve: the same process id, arguments and open
 * files) with `serverMallocEnvironment` added, when it adds anything; returns otherwise.
 * Called by `yeoul serve` and `yeoul dev` before anything else loads. A `MALLOC_ARENA_MAX`
 * of the user's, even an empty one, is left as it is.
 */
export function restartWithServerMalloc(): void {
  const added = serverMallocEnvironment(process.env);
  if (Object.keys(added).length === 0 || process.execve === undefined) return;
  process.execve(
    process.execPath,
    [process.execPath, ...process.execArgv, ...process.argv.slice(1)],
    { ...process.env, ...added },
  );
}
