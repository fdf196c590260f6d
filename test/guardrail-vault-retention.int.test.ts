import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import {
  createRuntime,
  pruneSessions,
  type Runtime,
  readServerConfig,
} from '../src/server/index.ts';
import {
  type PostgresServer,
  runYeoul,
  startPostgresServer,
  waitUntil,
} from '../src/testing/internal/index.ts';
import { startTestServer } from '../src/testing/internal/test-server.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-vault-retention-'));
after(() => rmSync(root, { recursive: true, force: true }));

const env = { YEOUL_SAMPLE_KNOWLEDGE: 'false' };

/** A vault as a redacting guardrail would leave it for `sessionId`. */
const vaultOf = (sessionId: string) => [
  { placeholder: '[EMAIL_1]', kind: 'email', value: `${sessionId}@example.com` },
  { placeholder: '[PHONE_1]', kind: 'phone', value: '010-2345-6789' },
];

/** Two chat sessions with a vault each; `old` last touched three days ago. */
async function seed(dataDir: string, extra: Record<string, string> = {}): Promise<void> {
  const runtime = await createRuntime(
    readServerConfig({ ...env, ...extra, YEOUL_DATA_DIR: dataDir }),
    { agents: false },
  );
  try {
    for (const sessionId of ['old', 'young']) {
      await runtime.runner.invoke({ message: '안녕하세요 [EMAIL_1]', sessionId });
      await runtime.sessions.claim(sessionId, 'anonymous', '안녕하세요');
      await runtime.vaults.add(sessionId, vaultOf(sessionId));
    }
  } finally {
    await runtime.close();
  }
  if (extra.DATABASE_URL !== undefined) return;
  const database = new DatabaseSync(join(dataDir, 'threads.sqlite'));
  database
    .prepare(
      `UPDATE graph_log SET created_at = created_at - 3 * 86400000 WHERE key / ${2 ** 24} IN
        (SELECT thread_no FROM graph_threads WHERE thread_id = 'old')`,
    )
    .run();
  database.close();
}

/** The vault rows each session has in the data folder's database, read from the file. */
function sqliteVaultRows(dataDir: string): Record<string, number> {
  const database = new DatabaseSync(join(dataDir, 'threads.sqlite'));
  try {
    const rows = database
      .prepare(
        'SELECT session_id, count(*) AS n FROM guardrail_vault GROUP BY session_id ORDER BY session_id',
      )
      .all() as Array<{ session_id: string; n: number }>;
    return Object.fromEntries(rows.map((row) => [row.session_id, row.n]));
  } finally {
    database.close();
  }
}

async function seeded(): Promise<string> {
  const dataDir = mkdtempSync(join(root, 'data-'));
  await seed(dataDir);
  assert.deepEqual(sqliteVaultRows(dataDir), { old: 2, young: 2 });
  return dataDir;
}

describe('a session’s guardrail vault (SQLite)', () => {
  it('goes with DELETE /api/sessions/:id, and only that session’s', async () => {
    const dataDir = await seeded();
    const { server, runtime } = await startTestServer(dataDir, env);
    try {
      const deleted = await fetch(`${server.url}/api/sessions/old`, { method: 'DELETE' });
      assert.equal(deleted.status, 204);
      assert.deepEqual(await runtime.vaults.load('old'), []);
      assert.deepEqual(await runtime.vaults.load('young'), vaultOf('young'));
    } finally {
      await server.close();
    }
    assert.deepEqual(sqliteVaultRows(dataDir), { young: 2 });
  });

  it('goes with POST /api/sessions/prune, kept for the sessions that stay', async () => {
    const dataDir = await seeded();
    const { server } = await startTestServer(dataDir, env);
    try {
      const pruned = await fetch(`${server.url}/api/sessions/prune`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ olderThan: '2d' }),
      });
      assert.equal(pruned.status, 200);
      assert.equal(((await pruned.json()) as { removed: number }).removed, 1);
    } finally {
      await server.close();
    }
    assert.deepEqual(sqliteVaultRows(dataDir), { young: 2 });
  });

  it('goes when YEOUL_SESSION_TTL_DAYS expires the session', async () => {
    const dataDir = await seeded();
    const { server, runtime } = await startTestServer(dataDir, {
      ...env,
      YEOUL_SESSION_TTL_DAYS: '2',
    });
    try {
      await waitUntil(
        async () => (await runtime.sessions.has('old')) === false,
        'the TTL sweep to delete the old session',
      );
      assert.deepEqual(await runtime.vaults.load('old'), []);
    } finally {
      await server.close();
    }
    assert.deepEqual(sqliteVaultRows(dataDir), { young: 2 });
  });

  it('goes with yeoul sessions delete', async () => {
    const dataDir = await seeded();
    const result = await runYeoul(['sessions', 'delete', 'old', '--data', dataDir], {
      env,
      timeoutMs: 60_000,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(sqliteVaultRows(dataDir), { young: 2 });
  });
});

describe('a session’s guardrail vault (PostgreSQL)', () => {
  let server: PostgresServer;
  before(async () => {
    server = await startPostgresServer();
  });
  after(() => server.stop());

  /** The vault rows each session has in the database. */
  async function postgresVaultRows(runtime: Runtime): Promise<Record<string, number>> {
    if (runtime.store.backend !== 'postgres') throw new Error('expected PostgreSQL');
    const { rows } = await runtime.store.pool.query<{ session_id: string; n: number }>(
      'SELECT session_id, count(*)::int AS n FROM guardrail_vault GROUP BY session_id ORDER BY session_id',
    );
    return Object.fromEntries(rows.map((row) => [row.session_id, row.n]));
  }

  it('is kept in the database, and goes with DELETE /api/sessions/:id and with a prune', async () => {
    const url = await server.createDatabase();
    const dataDir = mkdtempSync(join(root, 'data-'));
    await seed(dataDir, { DATABASE_URL: url });
    const { server: yeoul, runtime } = await startTestServer(dataDir, {
      ...env,
      DATABASE_URL: url,
    });
    try {
      assert.deepEqual(await postgresVaultRows(runtime), { old: 2, young: 2 });
      const deleted = await fetch(`${yeoul.url}/api/sessions/old`, { method: 'DELETE' });
      assert.equal(deleted.status, 204);
      assert.deepEqual(await postgresVaultRows(runtime), { young: 2 });
      const report = await pruneSessions(runtime, { olderThanMs: 0 });
      assert.deepEqual(report.sessionIds, ['young']);
      assert.deepEqual(await postgresVaultRows(runtime), {});
    } finally {
      await yeoul.close();
    }
  });
});
