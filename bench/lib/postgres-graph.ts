// The PostgreSQL part of `npm run bench:graph`: Yeoul's PostgresCheckpointer against
// LangGraph.js's PostgresSaver (bench/peers/langgraph-postgres), on the same server, the same
// chat-shaped graph, in one run. Without DATABASE_URL a throwaway server is started (durable
// settings: fsync and synchronous commit on); with it, the role must be allowed to create
// databases (each measurement gets a fresh one).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { applyMigrations, createPostgresPool, type PostgresPool } from '../../src/core/index.ts';
import {
  checkpointMigrations,
  type Durability,
  PostgresCheckpointer,
} from '../../src/graph/index.ts';
import {
  buildChatFixtureGraph,
  chatFixtureInput,
  createDatabaseOn,
} from '../../src/testing/internal/index.ts';
import { openBenchPostgres } from './bench-postgres.ts';
import { concurrentTurns, measureConcurrentTurns } from './concurrent-turns.ts';
import { microsecondsSince, ratio, summarize, target } from './stats.ts';

const stepsPerInvoke = 5;
const turns = 50;

type Log = (...parts: unknown[]) => void;

/** The tables that hold thread data (the heartbeats of instances are not). */
const threadTables = ['graph_segments'];

/** Bytes on disk (with indexes, TOAST and free-space maps) and of the live rows as stored. */
async function storedBytes(pool: PostgresPool): Promise<{ bytes: number; rowBytes: number }> {
  let bytes = 0;
  let rowBytes = 0;
  for (const table of threadTables) {
    const disk = await pool.query(`SELECT pg_total_relation_size('${table}')::bigint AS n`);
    const rows = await pool.query(
      `SELECT coalesce(sum(pg_column_size(t.*)), 0)::bigint AS n FROM ${table} t`,
    );
    bytes += Number(disk.rows[0]?.n);
    rowBytes += Number(rows.rows[0]?.n);
  }
  return { bytes, rowBytes };
}

async function openCheckpointer(url: string) {
  const pool = await createPostgresPool({ url });
  await applyMigrations(pool, checkpointMigrations);
  const checkpointer = await PostgresCheckpointer.open(pool);
  return {
    pool,
    checkpointer,
    async close() {
      await checkpointer.close();
      await pool.end();
    },
  };
}

/** Per step, in `durability` (`sync`: each step committed before the next; `async`: while it runs). */
async function measureSteps(url: string, quick: boolean, log: Log, durability: Durability) {
  const store = await openCheckpointer(
    await createDatabaseOn(url, `yeoul_bench_steps_${durability}`),
  );
  const graph = buildChatFixtureGraph({ checkpointer: store.checkpointer, durability });
  const warmup = quick ? 10 : 100;
  const count = quick ? 50 : 500;
  for (let index = 0; index < warmup; index += 1) {
    await graph.invoke(chatFixtureInput(index), { threadId: `warm-${index}` });
  }
  const samples: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const start = process.hrtime.bigint();
    const state = await graph.invoke(chatFixtureInput(index), { threadId: `t-${index}` });
    samples.push(microsecondsSince(start));
    if (state.messages.length !== 4)
      throw new Error(`a turn added ${state.messages.length} messages, not 4`);
  }
  await store.close();
  const invokeUs = summarize(samples);
  const stepUs = summarize(samples.map((sample) => sample / stepsPerInvoke));
  log(
    `postgres ${durability}: ${invokeUs.p50} µs/invoke p50, ${stepUs.p50} µs/step p50 (${count} invokes)`,
  );
  return { invokeUs, stepUs, count, durability };
}

/**
 * The floor under any runtime that keeps `sync`'s promise on this server: six commits in a
 * row per invoke (the input and five steps), each one plain insert of a small row through a
 * pool like Yeoul's, the last waiting for the WAL — no read, no check, no graph. LangGraph's
 * `sync` step ÷ this is the best `stepPostgresRatio` any implementation could reach here.
 */
async function measureSyncFloor(url: string, quick: boolean, log: Log) {
  const pool = await createPostgresPool({ url: await createDatabaseOn(url, 'yeoul_bench_floor') });
  await pool.query(
    'CREATE TABLE floor_rows (thread_id text NOT NULL, seq integer NOT NULL, data text NOT NULL, PRIMARY KEY (thread_id, seq))',
  );
  const insert = {
    name: 'floor_insert',
    text: `WITH cfg AS (SELECT set_config('synchronous_commit', $4, true) AS v)
      INSERT INTO floor_rows (thread_id, seq, data) SELECT $1, $2, $3 FROM cfg`,
  };
  const line = JSON.stringify({
    role: 'assistant',
    content: 'a step of about a hundred bytes, as a chat step stores',
  });
  const invoke = async (threadId: string) => {
    for (let seq = 1; seq <= stepsPerInvoke + 1; seq += 1) {
      await pool.query({
        ...insert,
        values: [threadId, seq, line, seq > stepsPerInvoke ? 'on' : 'off'],
      });
    }
  };
  const warmup = quick ? 10 : 100;
  const count = quick ? 50 : 500;
  for (let index = 0; index < warmup; index += 1) await invoke(`warm-${index}`);
  const samples: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const start = process.hrtime.bigint();
    await invoke(`t-${index}`);
    samples.push(microsecondsSince(start));
  }
  await pool.end();
  const invokeUs = summarize(samples);
  const stepUs = summarize(samples.map((sample) => sample / stepsPerInvoke));
  log(
    `postgres sync floor (six bare commits): ${invokeUs.p50} µs/invoke p50, ${stepUs.p50} µs/step`,
  );
  return { invokeUs, stepUs, count, commitsPerInvoke: stepsPerInvoke + 1 };
}

async function measureStorage(url: string, log: Log) {
  const store = await openCheckpointer(await createDatabaseOn(url, 'yeoul_bench_storage'));
  const graph = buildChatFixtureGraph({ checkpointer: store.checkpointer });
  for (let turn = 1; turn <= turns; turn += 1) {
    await graph.invoke(chatFixtureInput(turn), { threadId: 'storage' });
  }
  const result = await storedBytes(store.pool);
  await store.close();
  log(
    `storage: ${result.bytes} bytes on disk, ${result.rowBytes} bytes of rows after ${turns} turns`,
  );
  return result;
}

async function measureConcurrent(url: string, log: Log) {
  const store = await openCheckpointer(await createDatabaseOn(url, 'yeoul_bench_concurrent'));
  try {
    return await measureConcurrentTurns(store.checkpointer, log);
  } finally {
    await store.close();
  }
}

function runPeer(url: string, quick: boolean, log: Log) {
  const peer = join(import.meta.dirname, '..', 'peers', 'langgraph-postgres');
  if (!existsSync(join(peer, 'node_modules', '@langchain', 'langgraph-checkpoint-postgres'))) {
    log('installing the LangGraph.js PostgreSQL peer (npm ci in bench/peers/langgraph-postgres)');
    execFileSync('npm', ['ci', '--ignore-scripts'], {
      cwd: peer,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  }
  const result = spawnSync(
    process.execPath,
    [join(peer, 'bench.mjs'), ...(quick ? ['--quick'] : [])],
    {
      cwd: peer,
      env: { ...process.env, DATABASE_URL: url },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  if (result.status !== 0)
    throw new Error(`the LangGraph.js PostgreSQL peer failed (exit ${result.status})`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1) as string);
}

/**
 * Runs both sides on one PostgreSQL server and returns their numbers, the ratios and the
 * targets: `syncOverFloor` (Yeoul's `sync` step ÷ the bare-commit floor's) ≤ 1.3,
 * `stepPostgresAsyncRatio` (both `async`) ≥ 15, `storage50TurnsPostgresRatio`
 * (LangGraph's stored bytes after 50 turns ÷ Yeoul's) ≥ 50, every message of 20 concurrent
 * runs on one thread kept. On the server of `databaseUrl` (the user's DATABASE_URL) when
 * given, else on a throwaway durable server.
 */
export async function benchPostgres(options: {
  quick: boolean;
  log: Log;
  databaseUrl: string | undefined;
}) {
  const { quick, log } = options;
  const server = await openBenchPostgres(options.databaseUrl, log);
  const { url } = server;
  try {
    const version = await (async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query("SELECT current_setting('server_version') AS v");
      await client.end();
      return String(rows[0]?.v);
    })();
    const steps = await measureSteps(url, quick, log, 'sync');
    const stepsAsync = await measureSteps(url, quick, log, 'async');
    const syncFloor = await measureSyncFloor(url, quick, log);
    const storage50Turns = await measureStorage(url, log);
    const concurrentResult = await measureConcurrent(url, log);
    log('running the LangGraph.js PostgreSQL peer');
    const langgraph = runPeer(await createDatabaseOn(url, 'langgraph_bench'), quick, log);
    const ours = {
      name: 'yeoul',
      postgresVersion: version,
      stepsPerInvoke,
      postgres: steps,
      postgresAsync: stepsAsync,
      postgresSyncFloor: syncFloor,
      storage50Turns,
      concurrent: concurrentResult,
    };
    // Like against like: our sync against LangGraph's "sync", our async against its "async".
    const stepPostgres = ratio(langgraph.postgres.stepUs.p50, steps.stepUs.p50);
    const stepPostgresAsync = ratio(langgraph.postgresAsync.stepUs.p50, stepsAsync.stepUs.p50);
    const storage50TurnsPostgresRows = ratio(
      langgraph.storage50Turns.rowBytes,
      storage50Turns.rowBytes,
    );
    return {
      ours,
      langgraph,
      ratios: {
        stepPostgres,
        stepPostgresAsync,
        // The ratio as first taken (our sync against LangGraph's default, async); tracked only.
        stepPostgresSyncVsTheirAsync: ratio(langgraph.postgresAsync.stepUs.p50, steps.stepUs.p50),
        // The best stepPostgresRatio this server allows: LangGraph's sync step ÷ the floor's,
        // and how far above that floor Yeoul's sync step is.
        stepPostgresAtSyncFloor: ratio(langgraph.postgres.stepUs.p50, syncFloor.stepUs.p50),
        syncOverFloor: ratio(steps.stepUs.p50, syncFloor.stepUs.p50),
        storage50TurnsPostgresRows,
        storage50TurnsPostgresDisk: ratio(langgraph.storage50Turns.bytes, storage50Turns.bytes),
      },
      targets: {
        // Yeoul's sync step ÷ the bare-commit floor's, same run: what the runtime adds to the
        // commits it cannot skip. stepPostgresRatio stays in `ratios`: the floor decides how far
        // it can go on a given machine.
        syncOverFloor: target(ratio(steps.stepUs.p50, syncFloor.stepUs.p50), 1.3, 'lower'),
        stepPostgresAsyncRatio: target(stepPostgresAsync, 15, 'higher'),
        // Live rows as stored (compressed where the server compressed them): what a thread
        // costs once pages are reused; on-disk bytes of one small thread are mostly the fixed
        // pages of an empty table and its index (see ratios.storage50TurnsPostgresDisk).
        storage50TurnsPostgresRatio: target(storage50TurnsPostgresRows, 50, 'higher'),
        concurrentKeptPostgres: target(concurrentResult.kept / concurrentTurns, 1, 'higher'),
      },
    };
  } finally {
    await server.stop();
  }
}
