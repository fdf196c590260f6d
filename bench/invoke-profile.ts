// `node bench/invoke-profile.ts [turns]`: a CPU profile of Yeoul's invoke path under the peer
// comparison's load — the calculator turn (one tool call, two model calls) on a new thread per
// request, 100 connections, on the zero-latency scripted model — with the server started as
// the comparison starts it plus `--cpu-prof`. Prints the 10 functions with the most self time
// while the measured turns ran (start-up and warm-up left out) and where the profile is; the last stdout line is JSON (the load's summary and the top 10).
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatTopSelfTime } from './lib/cpu-profile-top.ts';
import { connectionPool } from './lib/http-client.ts';
import { yeoulClient } from './lib/peer-clients.ts';
import { spawnReady, stopProcess } from './lib/ready-process.ts';
import { runTurns } from './lib/turn-load.ts';

const turns = Number(process.argv[2] ?? 3000);
const log = (...parts: unknown[]) => console.error('[invoke-profile]', ...parts);
const child = join(import.meta.dirname, 'lib', 'bench-server-process.ts');
const profileDir = mkdtempSync(join(tmpdir(), 'yeoul-invoke-profile-'));

const model = await spawnReady('scripted-model', [child, 'scripted-model', '0'], {
  env: process.env,
});
const yeoul = await spawnReady(
  'yeoul',
  ['--max-semi-space-size=8', '--cpu-prof', `--cpu-prof-dir=${profileDir}`, child, 'yeoul'],
  { env: { ...process.env, YEOUL_MODEL: 'compat:bench', YEOUL_COMPAT_BASE_URL: model.url } },
);
const agent = connectionPool(100);
try {
  const turn = () => yeoulClient.invoke(yeoul.url, agent);
  const load = { connections: 100, turn, expected: '56,088', maxSeconds: 240 };
  await runTurns({ ...load, count: 200 });
  const microsecondsNow = () => Number(process.hrtime.bigint() / 1000n);
  const fromMicroseconds = microsecondsNow();
  const summary = await runTurns({ ...load, count: turns });
  const window = { fromMicroseconds, toMicroseconds: microsecondsNow() };
  log(
    `${summary.requests} turns, ${summary.requestsPerSecond} turns/s, p50 ${summary.p50Ms} ms, p99 ${summary.p99Ms} ms, errors ${summary.errors}`,
  );
  agent.destroy();
  await stopProcess(yeoul); // the profile is written as the server exits
  const file = join(
    profileDir,
    // CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile: thread 0 is the main thread (the
    // calculator's worker thread writes its own).
    readdirSync(profileDir).find((name) => /\.0\.\d+\.cpuprofile$/.test(name)) ?? '',
  );
  const top = formatTopSelfTime(file, 10, window);
  log(`top 10 self time (${file}; the measured turns only):\n${top}`);
  console.log(
    JSON.stringify({ bench: 'invoke-profile', summary, profile: file, top: top.split('\n') }),
  );
} finally {
  agent.destroy();
  await stopProcess(yeoul);
  await stopProcess(model);
}
