import { getCompileCacheDir } from 'node:module';
import { dirname } from 'node:path';

/**
 * The environment for a worker thread or child process that runs Yeoul's own modules: `env`
 * with this process's compile cache (`enableCompileCache` at the entry point reaches no other
 * thread or process). On a warm cache such a worker then strips no TypeScript, and never
 * loads Node's TypeScript stripper into its isolate. `env` itself when the cache is off, or
 * when `env` names one already.
 * @example
 * new Worker(entry, { env: withCompileCache() });
 */
export function withCompileCache(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const directory = getCompileCacheDir();
  if (directory === undefined || env.NODE_COMPILE_CACHE !== undefined) return env;
  // The folder of this Node version's cache lies in the one the entry point enabled.
  return { ...env, NODE_COMPILE_CACHE: dirname(directory) };
}
