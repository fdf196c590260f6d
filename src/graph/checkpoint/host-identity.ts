import { randomBytes } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Checkpointer } from './types.ts';

/** How long an instance counts as alive after its last heartbeat (it beats every third of it). */
export const defaultLeaseMs = 30_000;

let cachedHost: string | undefined;

/** A fresh id for one checkpointer instance (what run owners and heartbeats name). */
export function newInstanceId(): string {
  return randomBytes(8).toString('base64url');
}

/**
 * This machine as heartbeats record it: the host name, plus the process-id namespace on
 * Linux. Two containers may share a host name but never a pid namespace, so a pid is only
 * looked up where it means the same process.
 */
export function hostIdentity(): string {
  if (cachedHost === undefined) {
    let namespace = '';
    try {
      namespace = readlinkSync('/proc/self/ns/pid');
    } catch {
      // Not Linux (or no /proc): the host name alone.
    }
    cachedHost = namespace === '' ? hostname() : `${hostname()} ${namespace}`;
  }
  return cachedHost;
}

/**
 * Whether a process with this id runs here (signal 0 only checks). A zombie — a process
 * that ended but that its parent has not reaped yet — counts as dead: signal 0 still
 * reaches it, so its state is read from `/proc/<pid>/stat` (Linux; elsewhere signal 0 alone).
 */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' && !isZombie(pid);
  }
  return !isZombie(pid);
}

/** Whether `/proc` says the process has ended (`Z` zombie, `X` dead); false when it cannot tell. */
export function isZombie(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return false;
  }
  // "pid (command) state …": the command may hold spaces and parentheses, so read after the last ')'.
  const state = stat.charAt(stat.lastIndexOf(')') + 2);
  return state === 'Z' || state === 'X';
}

/**
 * Whether a run written by `owner` still goes in another live instance: false for no owner
 * (files written before owners) and for this instance, whose runs it knows itself.
 */
export async function runsElsewhere(
  checkpointer: Checkpointer,
  owner: string | null,
): Promise<boolean> {
  if (owner === null || owner === checkpointer.instanceId) return false;
  return checkpointer.isAlive(owner);
}
