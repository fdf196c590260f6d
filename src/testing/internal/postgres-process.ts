import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './closed-port.ts';
import type { PostgresBinaries } from './postgres-binaries.ts';

// The server runs under a small shell that stops it when this process closes the shell's
// stdin: on purpose (a line is written) or because this process died (end of file, which
// also removes the folder), so a crashed or timed-out test never leaves a server behind.
const supervisor = `root=$1; shift
exec 3<&0
"$@" &
server=$!
{ read -r _ <&3 || touch "$root/orphaned"; kill -INT "$server" 2>/dev/null; } &
watcher=$!
wait "$server"; status=$?
kill "$watcher" 2>/dev/null
if [ -e "$root/orphaned" ]; then rm -rf "$root"; fi
exit "$status"`;

/** A `postgres` process started by `launchPostgres`. */
export interface RunningPostgres {
  port: number;
  /** False once the process has exited. */
  running(): boolean;
  /**
   * Stops it and waits for it to exit; the data stays. `fast` (the default) ends every session
   * and shuts down cleanly; `immediate` quits at once, as a crash would (recovery at next start).
   */
  halt(mode?: 'fast' | 'immediate'): Promise<void>;
}

/**
 * Starts `postgres` on the data folder of `root` (made by initdb), on 127.0.0.1 and a free
 * port (or `fixedPort`), and resolves once it accepts connections; a taken port is retried.
 */
export async function launchPostgres(
  binaries: PostgresBinaries,
  root: string,
  settings: Record<string, string>,
  fixedPort?: number,
): Promise<RunningPostgres> {
  for (let attempt = 1; ; attempt += 1) {
    const port = fixedPort ?? (await freePort());
    const all: Record<string, string> = {
      listen_addresses: '127.0.0.1',
      port: String(port),
      unix_socket_directories: join(root, 'socket'),
      fsync: 'off',
      synchronous_commit: 'off',
      full_page_writes: 'off',
      max_connections: '200',
      ...settings,
    };
    const args = Object.entries(all).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
    const child = spawn(
      '/bin/sh',
      [
        '-c',
        supervisor,
        'yeoul-postgres',
        root,
        binaries.postgres,
        '-D',
        join(root, 'data'),
        ...args,
      ],
      { stdio: ['pipe', 'ignore', 'pipe'], ...binaries.runAs },
    );
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString('utf8')).slice(-8000);
    });
    child.stdin?.on('error', () => undefined);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await waitUntilReady(port, child, () => log);
      detach(child);
      return {
        port,
        running: () => child.exitCode === null,
        halt: (mode = 'fast') =>
          mode === 'immediate' ? quit(child, exited, root) : halt(child, exited, root),
      };
    } catch (error) {
      child.stdin?.end('stop\n');
      await exited;
      const portTaken = /could not bind|already in use/i.test(log);
      if (!portTaken || fixedPort !== undefined || attempt >= 3) throw error;
    }
  }
}

/** Lets this process exit while the server runs (the supervisor then stops it). */
function detach(child: ChildProcess): void {
  child.unref();
  (child.stdin as unknown as Socket | null)?.unref?.();
  (child.stderr as unknown as Socket | null)?.unref?.();
}

async function waitUntilReady(port: number, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`PostgreSQL exited while starting:\n${log().trim()}`);
    }
    const client = new pg.Client({
      host: '127.0.0.1',
      port,
      user: 'postgres',
      database: 'postgres',
      connectionTimeoutMillis: 1000,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
    }
    if (Date.now() > deadline) {
      throw new Error(`PostgreSQL did not accept connections within 30 s:\n${log().trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function halt(child: ChildProcess, exited: Promise<void>, root: string): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.ref();
  child.stdin?.end('stop\n');
  // Fast shutdown hung: end the postmaster at once.
  const timer = setTimeout(() => signalPostmaster(child, root), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Immediate shutdown (SIGQUIT to the postmaster): every process quits without cleaning up. */
async function quit(child: ChildProcess, exited: Promise<void>, root: string): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.ref();
  signalPostmaster(child, root);
  await exited;
}

/** SIGQUIT to the postmaster (its pid heads postmaster.pid), or SIGKILL to the supervisor. */
function signalPostmaster(child: ChildProcess, root: string): void {
  try {
    const pid = Number(readFileSync(join(root, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (pid > 0) process.kill(pid, 'SIGQUIT');
  } catch {
    child.kill('SIGKILL');
  }
}
