// Reads a V8 CPU profile (the `.cpuprofile` JSON `node --cpu-prof` writes) and ranks its
// functions by self time: each node's samples × the sampling interval, summed per function
// (name + script + line, so one function reached by many call paths counts once).
import { readFileSync } from 'node:fs';

/** The parts of a `.cpuprofile` this reads (Chrome DevTools protocol `Profiler.Profile`). */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }>;
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** One function's share of the profile. */
export interface SelfTime {
  functionName: string;
  /** The script, shortened to what follows `node_modules/` or the repository root. */
  location: string;
  selfMs: number;
  /** Of all samples, idle and garbage collection included. */
  percent: number;
}

function shorten(url: string, lineNumber: number): string {
  if (url === '') return '(native)';
  const inModules = url.lastIndexOf('node_modules/');
  const path =
    inModules === -1
      ? url.replace(/^file:\/\/.*?\/(src|bench|test)\//, '$1/')
      : url.slice(inModules + 'node_modules/'.length);
  return `${path}:${lineNumber + 1}`;
}

/** Only the samples taken within it, in the monotonic clock's microseconds (Linux: the clock of `process.hrtime`). */
export interface SampleWindow {
  fromMicroseconds: number;
  toMicroseconds: number;
}

/**
 * The `count` functions with the most self time (within `window` when given). A sample's
 * time is the delta to the next sample (V8 records the gap before each sample), so an
 * irregular interval is weighed right.
 */
export function topSelfTime(profile: CpuProfile, count = 10, window?: SampleWindow): SelfTime[] {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const totals = new Map<string, SelfTime>();
  let allMicroseconds = 0;
  let timestamp = profile.startTime;
  for (let index = 0; index < profile.samples.length; index += 1) {
    timestamp += profile.timeDeltas[index] ?? 0;
    if (
      window !== undefined &&
      (timestamp < window.fromMicroseconds || timestamp > window.toMicroseconds)
    )
      continue;
    const microseconds = profile.timeDeltas[index + 1] ?? 0;
    allMicroseconds += microseconds;
    const frame = frames.get(profile.samples[index] as number);
    if (frame === undefined) continue;
    const location = shorten(frame.url, frame.lineNumber);
    const functionName = frame.functionName || '(anonymous)';
    const key = `${functionName} ${location}`;
    const entry = totals.get(key) ?? { functionName, location, selfMs: 0, percent: 0 };
    entry.selfMs += microseconds / 1000;
    totals.set(key, entry);
  }
  return [...totals.values()]
    .sort((a, b) => b.selfMs - a.selfMs)
    .slice(0, count)
    .map((entry) => ({
      ...entry,
      selfMs: Math.round(entry.selfMs * 10) / 10,
      percent: allMicroseconds === 0 ? 0 : Math.round((entry.selfMs * 1e7) / allMicroseconds) / 100,
    }));
}

/** The top functions of the profile file at `path`, one line each, for a terminal or a note. */
export function formatTopSelfTime(path: string, count = 10, window?: SampleWindow): string {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  return topSelfTime(profile, count, window)
    .map(
      (entry, index) =>
        `${String(index + 1).padStart(2)}. ${entry.selfMs.toFixed(0).padStart(7)} ms ${entry.percent.toFixed(1).padStart(5)}%  ${entry.functionName}  ${entry.location}`,
    )
    .join('\n');
}
