import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { ConfigError } from '../src/config/index.ts';
import { createRuntime, pruneSessions, readServerConfig } from '../src/server/index.ts';
import {
  type PostgresServer,
  runYeoul,
  startPostgresServer,
} from '../src/testing/internal/index.ts';
import { startTestServer } from '../src/testing/internal/test-server.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-retention-'));
after(() => rmSync(root, { recursive: true, force: true }));

const env = { YEOUL_SAMPLE_KNOWLEDGE: 'false', YEOUL_TOOL_PERMISSIONS: 'calculator:ask' };

/** Six chat sessions, one with an ops loop, and one paused on a calculator approval. */
async function seed(dataDir: string, extra: Record<string, string> = {}): Promise<void> {
  const runtime = await createRuntime(
    readServerConfig({ ...env, ...extra, YEOUL_DATA_DIR: dataDir }),
  );
  try {
    for (let index = 0; index < 6; index += 1) {
      await runtime.runner.invoke({
        message: `안녕하세요 ${index} ${'긴 대화 내용입니다. '.repeat(200)}`,
        sessionId: `chat-${index}`,
      });
      await runtime.sessions.claim(`chat-${index}`, 'anonymous', 'hello');
    }
    await runtime.runner.invoke({
      message: '안녕하세요',
      sessionId: 'with-ops',
      options: { graph: 'ops' },
    });
    const paused = await runtime.runner.invoke({
      message: '123 * 456 계산해줘',
      sessionId: 'paused',
    });
    assert.equal(paused.status, 'interrupted');
  } finally {
    await runtime.close();
  }
}

/** Rows left for these threads in every table of the threads database. */
function rowsFor(dataDir: string, threads: string[]): number {
  const database = new DatabaseSync(join(dataDir, 'threads.sqlite'));
  try {
    const list = JSON.stringify(threads);
    const count = (sql: string) => (database.prepare(sql).get(list) as { n: number }).n;
    return (
      // A thread's row in graph_threads holds its snapshot; its entries are keyed by its number.
      count(
        `SELECT count(*) AS n FROM graph_log WHERE key / ${2 ** 24} IN
          (SELECT thread_no FROM graph_threads WHERE thread_id IN (SELECT value FROM json_each(?)))`,
      ) +
      count(
        'SELECT count(*) AS n FROM graph_threads WHERE thread_id IN (SELECT value FROM json_each(?))',
      ) +
      count(
        'SELECT count(*) AS n FROM server_session_owners WHERE session_id IN (SELECT value FROM json_each(?))',
      )
    );
  } finally {
    database.close();
  }
}

const removable = [
  ...Array.from({ length: 6 }, (_, index) => `chat-${index}`),
  'with-ops',
  'with-ops#ops',
];

describe('yeoul sessions prune', () => {
  let dataDir: string;
  before(async () => {
    dataDir = mkdtempSync(join(root, 'data-'));
    await seed(dataDir);
  });

  const prune = (...args: string[]) =>
    runYeoul(['sessions', 'prune', ...args, '--data', dataDir], { env, timeoutMs: 60_000 });

  it('says what would go on a dry run and removes nothing', async () => {
    const dry = await prune('--older-than', '0s', '--dry-run', '--json');
    assert.equal(dry.code, 0, dry.stderr);
    const report = JSON.parse(dry.stdout);
    assert.equal(report.removed, 7);
    assert.equal(report.keptAwaitingApproval, 1);
    assert.equal(report.dryRun, true);
    assert.ok(rowsFor(dataDir, removable) > 0);
    const young = await prune('--older-than', '30d');
    assert.match(young.stdout, /removed 0 sessions; kept 0 waiting for an approval decision/);
  });

  it('removes every row of old sessions and their ops threads, keeps a pending approval, and shrinks the file', async () => {
    const result = await prune('--older-than', '0s');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /removed 7 sessions; kept 1 waiting for an approval decision/);
    const [, freed, before, after] =
      /(\d+) bytes given back \((\d+) → (\d+) bytes\)/.exec(result.stdout) ?? [];
    assert.ok(Number(freed) > 0 && Number(after) < Number(before), result.stdout);
    assert.equal(rowsFor(dataDir, removable), 0);
    assert.ok(rowsFor(dataDir, ['paused']) > 0, 'the session waiting for a decision stays');
  });

  it('refuses a duration it cannot read (exit 2)', async () => {
    const bad = await prune('--older-than', '30x');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--older-than must be a number and s, m, h or d/);
  });
});

describe('YEOUL_SESSION_TTL_DAYS', () => {
  it('accepts a positive whole number of days and refuses anything else', () => {
    assert.equal(readServerConfig({ YEOUL_SESSION_TTL_DAYS: '30' }).sessionTtlDays, 30);
    assert.equal(readServerConfig({ YEOUL_SESSION_TTL_DAYS: '' }).sessionTtlDays, undefined);
    for (const value of ['0', '-1', '1.5', 'abc', '30d']) {
      assert.throws(
        () => readServerConfig({ YEOUL_SESSION_TTL_DAYS: value }),
        (error: unknown) =>
          error instanceof ConfigError && /YEOUL_SESSION_TTL_DAYS/.test(error.message),
        value,
      );
    }
  });

  it('deletes sessions idle longer than the TTL when the server starts, keeping the rest', async () => {
    const dataDir = mkdtempSync(join(root, 'data-'));
    await seed(dataDir);
    // Three sessions and the paused one were last touched three days ago.
    const database = new DatabaseSync(join(dataDir, 'threads.sqlite'));
    database
      .prepare(
        `UPDATE graph_log SET created_at = created_at - 3 * 86400000 WHERE key / ${2 ** 24} IN
          (SELECT thread_no FROM graph_threads WHERE thread_id IN ('chat-0', 'chat-1', 'chat-2', 'paused'))`,
      )
      .run();
    database.close();
    const { server } = await startTestServer(dataDir, { ...env, YEOUL_SESSION_TTL_DAYS: '2' });
    try {
      let ids: string[] = [];
      for (let attempt = 0; attempt < 50; attempt += 1) {
        const body = (await (await fetch(`${server.url}/api/sessions`)).json()) as {
          sessions: Array<{ sessionId: string }>;
        };
        ids = body.sessions.map((session) => session.sessionId).sort();
        // The prune deletes one session at a time: wait for all three.
        if (!['chat-0', 'chat-1', 'chat-2'].some((id) => ids.includes(id))) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.deepEqual(ids, ['chat-3', 'chat-4', 'chat-5', 'paused', 'with-ops']);
    } finally {
      await server.close();
    }
  });
});

describe('pruning sessions in PostgreSQL', () => {
  let server: PostgresServer;
  before(async () => {
    server = await startPostgresServer();
  });
  after(() => server.stop());

  it('deletes the rows of old sessions from every table and keeps a pending approval', async () => {
    const url = await server.createDatabase();
    const dataDir = mkdtempSync(join(root, 'data-'));
    await seed(dataDir, { DATABASE_URL: url });
    const runtime = await createRuntime(
      readServerConfig({ ...env, DATABASE_URL: url, YEOUL_DATA_DIR: dataDir }),
      { agents: false },
    );
    try {
      if (runtime.store.backend !== 'postgres') throw new Error('expected PostgreSQL');
      const pool = runtime.store.pool;
      const rows = async (threads: string[]) => {
        let total = 0;
        for (const [table, column] of [
          ['graph_segments', 'thread_id'],
          ['server_sessions', 'session_id'],
          ['server_run_events', 'session_id'],
        ]) {
          const result = await pool.query(
            `SELECT count(*)::int AS n FROM ${table} WHERE ${column} = ANY($1::text[])`,
            [threads],
          );
          total += result.rows[0].n as number;
        }
        return total;
      };
      assert.ok((await rows(removable)) > 0);
      const report = await pruneSessions(runtime, { olderThanMs: 0 });
      assert.equal(report.removed, 7);
      assert.equal(report.keptAwaitingApproval, 1);
      assert.equal(await rows(removable), 0);
      assert.ok((await rows(['paused'])) > 0);
      assert.ok(report.bytesBefore > 0);
    } finally {
      await runtime.close();
    }
  });
});
