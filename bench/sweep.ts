// npm run bench:sweep — what one round of the server's run sweeper costs in finding the running
// threads (PostgresCheckpointer.listThreads({status: 'running'})), with 1 000 and then 100 000
// idle threads stored beside a few running ones. The same listing by a walk of every thread
// (the path it took before migration 201, still the one of any other status) is timed beside
// it. Prints one line per size, then one JSON object with the targets.
import { applyMigrations, createPostgresPool } from '../src/core/index.ts';
import { entryFor } from '../src/graph/checkpoint/checkpointer-conformance.ts';
import { checkpointMigrations, PostgresCheckpointer } from '../src/graph/index.ts';
import { startPostgresServer } from '../src/testing/internal/index.ts';
import { percentile, ratio, target } from './lib/stats.ts';

const sizes = [1_000, 100_000];
const runningThreads = 5;
const rounds = 30;

const log = (...parts: unknown[]) => console.error(...parts);

// Idle threads as a finished run leaves them: the last row `done`, an earlier `running` step.
const addIdleThreadsSql = `
INSERT INTO graph_segments (thread_id, first_seq, last_seq, updated_at, pending, sealed, status, run_id, data)
SELECT 'idle-' || n, seq, seq, n, 0, false, CASE seq WHEN 2 THEN 'done' ELSE 'running' END, 'run-1', $3
FROM generate_series($1::int, $2::int) AS n CROSS JOIN generate_series(1, 2) AS seq`;

/** Median and p99 milliseconds of `rounds` calls of `work`. */
async function time(work: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  return { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99) };
}

const server = await startPostgresServer();
const pool = await createPostgresPool({ url: server.url });
try {
  await applyMigrations(pool, checkpointMigrations);
  const checkpointer = await PostgresCheckpointer.open(pool);
  for (let index = 0; index < runningThreads; index += 1) {
    await checkpointer.append(entryFor(`live-${index}`, 1));
  }
  const line = JSON.stringify(entryFor('idle', 1));
  const results: Record<number, { set: number; walk: number }> = {};
  let stored = 0;
  for (const size of sizes) {
    log(`storing ${size - stored} more idle threads …`);
    await pool.query(addIdleThreadsSql, [stored + 1, size, line]);
    stored = size;
    // Stored directly, these rows skip the append that keeps the running set (migration 202),
    // so the set holds what it holds after their runs ended: only the live threads. VACUUM
    // clears dead rows as autovacuum would, here at once.
    await pool.query('VACUUM ANALYZE graph_segments, graph_running_threads');
    const found = await checkpointer.listThreads({ status: 'running' });
    if (found.length !== runningThreads) throw new Error(`found ${found.length} running threads`);
    const set = await time(() => checkpointer.listThreads({ status: 'running' }));
    // `interrupted` still walks every thread: the cost the running listing had before.
    const walk = await time(() => checkpointer.listThreads({ status: 'interrupted' }));
    results[size] = { set: set.p50, walk: walk.p50 };
    console.log(
      `${size.toLocaleString('en')} idle threads: running listing p50 ${set.p50} ms (p99 ${set.p99}); ` +
        `a walk of every thread p50 ${walk.p50} ms (p99 ${walk.p99})`,
    );
  }
  await checkpointer.close();
  const [small, large] = sizes.map((size) => results[size] as { set: number; walk: number });
  console.log(
    JSON.stringify({
      bench: 'sweep',
      runningThreads,
      rounds,
      sweepListingMs: Object.fromEntries(sizes.map((size) => [size, results[size]])),
      targets: {
        // Flat: 100× the idle threads may cost at most twice as much (noise, a deeper index).
        sweepCost100kVs1k: target(ratio(large?.set ?? 0, small?.set ?? 1), 2, 'lower'),
      },
    }),
  );
} finally {
  await pool.end();
  await server.stop();
}
