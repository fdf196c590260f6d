// limitCheckPostgresP50Ms of `npm run bench:identity`: one limit check as a run request makes
// it — `checkLimits` over `PostgresUsageStore`, the rate and both budgets set, checked and
// counted, accepted — on PostgreSQL, one at a time, over many owners with some use already
// this month. Beside it, on the same pool and interleaved with it, the floors under any check
// that counts durably: a bare `SELECT 1` round trip, and the smallest write transaction (one
// insert of one number, committed). Without DATABASE_URL a throwaway server is started with
// durable settings (fsync and synchronous commit on); with it, the role must be allowed to
// create databases (the bench uses a fresh one).
import { applyMigrations, createPostgresPool, type PostgresPool } from '../../src/core/index.ts';
import {
  checkLimits,
  type LimitSettings,
  PostgresUsageStore,
  usageMigrations,
} from '../../src/identity/index.ts';
import { createDatabaseOn } from '../../src/testing/internal/index.ts';
import { openBenchPostgres } from './bench-postgres.ts';
import { microsecondsSince, ratio, summarize, type Target, target } from './stats.ts';

type Log = (...parts: unknown[]) => void;

/** How many owners, and how many checks of each kind. */
export interface LimitCheckPlan {
  owners: number;
  warmup: number;
  samples: number;
}

/** The full run's plan, and `--smoke`'s. */
export const limitCheckPlans: Record<'full' | 'smoke', LimitCheckPlan> = {
  full: { owners: 1_000, warmup: 2_000, samples: 5_000 },
  smoke: { owners: 50, warmup: 100, samples: 200 },
};

/** All three limits, high enough that every check of the run is accepted. */
const limits: LimitSettings = {
  requestsPerMinute: 60,
  tokensPerDay: 1_000_000,
  tokensPerMonth: 20_000_000,
};
/** Days of use each owner has before the run (today and the days before it). */
const daysOfUse = 10;

const selectOne = { name: 'bench_select_one', text: 'SELECT 1' };
const smallestWrite = {
  name: 'bench_smallest_write',
  text: 'INSERT INTO bench_smallest_writes (at) VALUES ($1)',
};

/** p50 and p99 in µs. */
type Spread = { p50: number; p99: number };

/** Gives every owner `daysOfUse` days of model use, as finished runs leave it. */
async function seedUse(store: PostgresUsageStore, owners: string[], now: Date): Promise<void> {
  for (const owner of owners) {
    for (let day = 0; day < daysOfUse; day += 1) {
      const at = new Date(now.getTime() - day * 86_400_000);
      await store.record(owner, { llmCalls: 4, inputTokens: 900, outputTokens: 300 }, at);
    }
  }
}

/**
 * Measures limitCheckPostgresP50Ms: `samples` checks, each beside a `SELECT 1` and a smallest
 * write on the same pool and the same check not waiting for the WAL's flush, after `warmup` rounds (every owner's first check, which lays out
 * its window, among them).
 */
export async function measureLimitCheckPostgres(options: {
  plan: LimitCheckPlan;
  databaseUrl: string | undefined;
  log: Log;
}): Promise<{ limitCheckPostgresP50Ms: Target; [detail: string]: unknown }> {
  const { plan, log } = options;
  const server = await openBenchPostgres(options.databaseUrl, log);
  let pool: PostgresPool | undefined;
  let unflushedPool: PostgresPool | undefined;
  try {
    const url = await createDatabaseOn(server.url, 'yeoul_bench_limits');
    pool = await createPostgresPool({ url });
    // The same check on connections that do not wait for the WAL to reach the disk: what the
    // check costs apart from the commit's flush (for the reading only; the target is durable).
    // One connection, set once and used throughout (checked again at the end).
    unflushedPool = await createPostgresPool({ url, maxConnections: 1 });
    const unflushedClient = await unflushedPool.connect();
    await unflushedClient.query('SET synchronous_commit TO off');
    unflushedClient.release();
    await applyMigrations(pool, usageMigrations);
    await pool.query('CREATE TABLE bench_smallest_writes (at bigint NOT NULL)');
    const store = new PostgresUsageStore(pool);
    const unflushedStore = new PostgresUsageStore(unflushedPool);
    const owners = Array.from({ length: plan.owners }, (_, index) => `jwt:owner-${index + 1}`);
    log(`giving ${plan.owners} owners ${daysOfUse} days of use each`);
    await seedUse(store, owners, new Date());
    await pool.query('VACUUM ANALYZE usage_days');
    const activePool = pool;
    const check = async (on: PostgresUsageStore, index: number) => {
      const decision = await checkLimits(on, {
        owner: owners[index % owners.length] as string,
        exempt: false,
        limits,
        now: new Date(),
      });
      if (!decision.accepted) throw new Error(`a check was refused: ${decision.error.message}`);
    };
    const kinds = {
      check: (index: number) => check(store, index),
      checkUnflushed: (index: number) => check(unflushedStore, index),
      selectOne: async () => {
        await activePool.query(selectOne);
      },
      smallestWrite: async (index: number) => {
        await activePool.query({ ...smallestWrite, values: [index] });
      },
    };
    const samples: Record<keyof typeof kinds, number[]> = {
      check: [],
      checkUnflushed: [],
      selectOne: [],
      smallestWrite: [],
    };
    for (let index = 0; index < plan.warmup + plan.samples; index += 1) {
      for (const [kind, run] of Object.entries(kinds) as Array<
        [keyof typeof kinds, (index: number) => Promise<void>]
      >) {
        const started = process.hrtime.bigint();
        await run(index);
        if (index >= plan.warmup) samples[kind].push(microsecondsSince(started));
      }
    }
    const setting = await unflushedPool.query<{ synchronous_commit: string }>(
      'SHOW synchronous_commit',
    );
    if (setting.rows[0]?.synchronous_commit !== 'off')
      throw new Error('the unflushed checks ran on a connection that waits for the flush');
    const checkUs: Spread = summarize(samples.check);
    const checkUnflushedUs: Spread = summarize(samples.checkUnflushed);
    const selectOneUs: Spread = summarize(samples.selectOne);
    const smallestWriteUs: Spread = summarize(samples.smallestWrite);
    const p50Ms = Math.round(checkUs.p50) / 1000;
    log(
      `one limit check (rate and budgets, checked and counted): p50 ${checkUs.p50} µs, p99 ${checkUs.p99} µs; ` +
        `floors on the same pool: SELECT 1 p50 ${selectOneUs.p50} µs (p99 ${selectOneUs.p99}), ` +
        `smallest write transaction p50 ${smallestWriteUs.p50} µs (p99 ${smallestWriteUs.p99}); ` +
        `the check not waiting for the WAL's flush p50 ${checkUnflushedUs.p50} µs (p99 ${checkUnflushedUs.p99})`,
    );
    return {
      limitCheckPostgresP50Ms: target(p50Ms, 0.2, 'lower'),
      checkUs,
      checkUnflushedUs,
      floors: { selectOneUs, smallestWriteUs },
      // How far above each floor the check is (p50 ÷ p50), and the µs it adds to the write.
      checkOverSelectOne: ratio(checkUs.p50, selectOneUs.p50),
      checkOverSmallestWrite: ratio(checkUs.p50, smallestWriteUs.p50),
      checkMinusSmallestWriteUs: Math.round((checkUs.p50 - smallestWriteUs.p50) * 10) / 10,
      server: options.databaseUrl ? 'DATABASE_URL' : 'throwaway, fsync and synchronous_commit on',
      plan,
      limits,
    };
  } finally {
    await unflushedPool?.end();
    await pool?.end();
    await server.stop();
  }
}
