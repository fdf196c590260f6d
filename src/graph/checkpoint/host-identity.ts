import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

let cachedHost: string | undefined;

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
