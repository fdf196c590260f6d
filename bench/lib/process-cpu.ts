// The CPU time a process has used (user + system, every thread of it), read from /proc: a
// server's CPU per request is steadier than its requests/s when other work shares the machine.
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux). */
const ticksPerSecond = 100;

/** Seconds of CPU `pid` has used so far (user + system), or NaN where /proc cannot tell. */
export function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return Number.NaN;
  }
}
