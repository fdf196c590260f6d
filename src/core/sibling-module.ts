/**
 * The URL of a module beside the caller, with the caller's own extension: `.ts` when Yeoul
 * runs from its sources, `.js` when it runs from the built package (a worker thread or
 * child process is started by path, which no compiler rewrites).
 * @example
 * const entry = siblingModule(import.meta.url, 'math-worker-thread');
 */
export function siblingModule(callerUrl: string, name: string): URL {
  const extension = /\.[cm]?[jt]s$/.exec(new URL(callerUrl).pathname)?.[0] ?? '.js';
  return new URL(`./${name}${extension}`, callerUrl);
}
