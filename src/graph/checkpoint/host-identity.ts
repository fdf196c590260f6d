import { randomBytes } from 'node:crypto';
import { readlinkSync } from 'node:fs';
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

/** Whether a process with this id runs here (signal 0 only checks). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
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
