// Starts a server process of `npm run bench:server` and waits for the `READY <url>` line it
// prints on stdout: Yeoul's and the floors' (bench-server-process.ts) and the peers'.
import { type ChildProcess, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A started server: its base URL, its process id and the process. */
export interface ReadyProcess {
  url: string;
  pid: number;
  child: ChildProcess;
}

/**
 * `env` for a process of bench-server-process.ts (Yeoul, its floors, the fake models), as
 * `npm start` runs Yeoul: its entry point (bin/yeoul.js) turns Node's compile cache on (in its
 * default folder) before any TypeScript loads; a child whose entry is TypeScript itself gets
 * it from the variable. Unchanged when `env` names a cache or turns it off.
 */
export function withServeCompileCache(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.NODE_COMPILE_CACHE !== undefined || env.NODE_DISABLE_COMPILE_CACHE !== undefined) {
    return env;
  }
  return { ...env, NODE_COMPILE_CACHE: join(tmpdir(), 'node-compile-cache') };
}

/** Spawns `node <args>` (this Node) and resolves once it prints `READY <url>`. */
export function spawnReady(
  name: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string },
): Promise<ReadyProcess> {
  const child = spawn(process.execPath, args, {
    env: options.env,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    let ready = false;
    // Read to the end (a full pipe would stall the server); keep only what comes before READY.
    child.stdout?.on('data', (chunk: Buffer) => {
      if (ready) return;
      output += chunk.toString();
      const match = /READY (\S+)/.exec(output);
      if (match?.[1]) {
        ready = true;
        resolve({ url: match[1], pid: child.pid as number, child });
      }
    });
    child.on('exit', (code) => reject(new Error(`${name} exited (${code}) before it was ready`)));
  });
}

/** Ends a started server and waits for its exit. */
export async function stopProcess(server: ReadyProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
