#!/usr/bin/env node
// The `yeoul` command (package.json "bin"): `yeoul --help` lists the commands.
import { enableCompileCache } from 'node:module';

// Node keeps compiled modules (and stripped TypeScript) between runs, in its cache folder
// under the system's temporary folder: a command starts about 0.4 s sooner the second
// time. NODE_DISABLE_COMPILE_CACHE=1 turns it off. Enabled before anything else loads.
enableCompileCache();
// Node 22 (the package runs on 22.18 and later) warns on stderr at every start that
// node:sqlite is experimental; Yeoul uses it knowingly, and stderr is for its own errors.
const emitWarning = process.emitWarning;
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  if (String(warning).includes('SQLite is an experimental feature')) return;
  Reflect.apply(emitWarning, process, [warning, ...rest]);
}) as typeof process.emitWarning;
// A server runs with fewer malloc arenas (see server-heap.ts): the process starts again in
// place with the variable set, before it loads anything else.
if (process.argv[2] === 'serve' || process.argv[2] === 'dev') {
  const { restartWithServerMalloc } = await import('./server/runtime/server-heap.ts');
  restartWithServerMalloc();
}
const { runCli } = await import('./cli/index.ts');

const exitCode = await runCli(process.argv.slice(2));
process.exitCode = exitCode;
// Everything a command opened is closed by now; should a stray handle still hold the
// event loop, leave anyway rather than hang (the timer itself keeps nothing alive).
setTimeout(() => process.exit(exitCode), 2000).unref();
