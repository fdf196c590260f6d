import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../src/cli/index.ts';
import {
  OpenSearchRetriever,
  readSearchSettings,
  SqliteDocumentStore,
} from '../src/knowledge/index.ts';
import {
  type FakeOpenSearch,
  type PostgresServer,
  startFakeOpenSearch,
  startPostgresServer,
} from '../src/testing/internal/index.ts';

const cliPath = join(import.meta.dirname, '..', 'src', 'cli.ts');
const root = mkdtempSync(join(tmpdir(), 'yeoul-reindex-'));
let fake: FakeOpenSearch;
before(async () => {
  fake = await startFakeOpenSearch();
});
after(async () => {
  await fake.close();
  rmSync(root, { recursive: true, force: true });
});

const unwanted = [
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'YEOUL_MODEL',
  'YEOUL_EMBEDDING_MODEL',
  'YEOUL_DATA_DIR',
  'DATABASE_URL',
  'YEOUL_SEARCH_URL',
  'NODE_TEST_CONTEXT',
];

/** Runs `node src/cli.ts …` as a child process, offline. */
function yeoul(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    YEOUL_SAMPLE_KNOWLEDGE: 'false',
    ...env,
  };
  for (const name of unwanted) if (!(name in env)) delete childEnv[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], { cwd: root, env: childEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let folders = 0;
/**
 * A data folder holding three ingested documents (ingested with the embedded store, or the
 * database of `env`'s DATABASE_URL, before any cluster).
 */
async function dataWithDocuments(env: Record<string, string> = {}): Promise<string> {
  folders += 1;
  const data = join(root, `data-${folders}`);
  const docs = join(root, `docs-${folders}`);
  mkdirSync(docs, { recursive: true });
  writeFileSync(join(docs, 'leave.md'), '# 휴가 정책\n\n연차는 입사 첫해에 15일이 주어집니다.\n');
  writeFileSync(
    join(docs, 'budget.md'),
    '# Team budget\n\nThe budget is reviewed every quarter.\n',
  );
  writeFileSync(join(docs, 'parking.md'), '# Parking\n\nPermits come from the front desk.\n');
  const ingested = await yeoul(['ingest', docs, '--data', data], env);
  assert.equal(ingested.code, 0, ingested.stderr);
  return data;
}
const searchUrl = (index: string) => ({
  YEOUL_SEARCH_URL: `opensearch:${fake.url}?index=${index}`,
});

describe('yeoul reindex', () => {
  it('fills a new index from the stored documents, one progress line each, and exits 0', async () => {
    const data = await dataWithDocuments();
    const run = await yeoul(['reindex', '--data', data], searchUrl('kb-fill'));
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(run.stderr.trim().split('\n').sort(), [
      'indexed  Parking',
      'indexed  Team budget',
      'indexed  휴가 정책',
    ]);
    assert.match(run.stdout, /^3 documents \(3 chunks\) indexed into kb-fill-v1-\d+; 0 failed\n$/);
    const [index] = fake.cluster.resolve('kb-fill');
    assert.equal(index?.searchableCount, 3);
  });

  it('replaces an index Yeoul refuses at start, so that it starts again', async () => {
    const data = await dataWithDocuments();
    const foreign = await fetch(`${fake.url}/kb-foreign-old`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        aliases: { 'kb-foreign': {} },
        mappings: { dynamic: 'strict', properties: {} },
      }),
    });
    assert.equal(foreign.status, 200);
    const open = () =>
      OpenSearchRetriever.open({
        settings: readSearchSettings(searchUrl('kb-foreign')) as NonNullable<
          ReturnType<typeof readSearchSettings>
        >,
        store: new SqliteDocumentStore({ path: join(data, 'knowledge.sqlite') }),
        retryIntervalMs: 0,
      });
    await assert.rejects(open(), { code: 'search_index_mismatch' });
    const run = await yeoul(['reindex', '--data', data], searchUrl('kb-foreign'));
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /indexed into kb-foreign-v1-\d+, replacing kb-foreign-old; 0 failed/);
    assert.equal(fake.cluster.indexes.has('kb-foreign-old'), false);
    const retriever = await open();
    assert.equal((await retriever.search('budget reviewed'))[0]?.title, 'Team budget');
    await retriever.close();
  });

  it('exits 1 naming the documents the cluster refused, which stay pending', async () => {
    const data = await dataWithDocuments();
    fake.failBulkItems({
      match: (item) => item.index.startsWith('kb-refused') && item.source?.title === 'Parking',
    });
    const run = await yeoul(['reindex', '--data', data], searchUrl('kb-refused'));
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^failed {3}Parking: 429 es_rejected_execution_exception/m);
    assert.match(run.stderr, /yeoul: 1 of 3 documents were not indexed; they stay pending/);
    const store = new SqliteDocumentStore({ path: join(data, 'knowledge.sqlite') });
    assert.deepEqual(
      (await store.pendingWrites(10)).map((write) => write.action),
      ['index'],
    );
    await store.close();
  });

  it('exits 1 with one line when the cluster is down, and 2 on bad usage', async () => {
    const data = await dataWithDocuments();
    await fake.stop();
    try {
      const down = await yeoul(['reindex', '--data', data], searchUrl('kb-down'));
      assert.equal(down.code, 1);
      assert.match(down.stderr, /^yeoul: Knowledge search is unavailable: .*no connection.*\n$/);
    } finally {
      await fake.start();
    }
    const usage = await yeoul(['reindex', 'extra', '--data', data], searchUrl('kb-down'));
    assert.equal(usage.code, 2);
    const unset = await yeoul(['reindex', '--data', data]);
    assert.equal(unset.code, 0);
    assert.match(unset.stdout, /YEOUL_SEARCH_URL is not set/);
  });

  it('draws a progress bar on a terminal', async () => {
    const data = await dataWithDocuments();
    let stdout = '';
    let stderr = '';
    const code = await runCli(['reindex', '--data', data], {
      stdin: process.stdin,
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text), isTTY: true, columns: 80 },
      env: { ...searchUrl('kb-tty'), YEOUL_SAMPLE_KNOWLEDGE: 'false' },
    });
    assert.equal(code, 0, stderr);
    const redraws = stderr.split('\r\x1b[2K').filter(Boolean);
    assert.match(redraws[0] ?? '', /^\[#{8}-{16}\] 1\/3 {2}/);
    assert.match(redraws.at(-1) ?? '', /^\[#{24}\] 3\/3 {2}/);
    assert.match(stdout, /3 documents/);
  });
});

describe('yeoul reindex with DATABASE_URL', () => {
  let database: PostgresServer;
  before(async () => {
    database = await startPostgresServer();
  });
  after(() => database.stop());

  it('fills the index from the documents stored in PostgreSQL', async () => {
    const env = { DATABASE_URL: await database.createDatabase() };
    const data = await dataWithDocuments(env);
    const run = await yeoul(['reindex', '--data', data], { ...env, ...searchUrl('kb-pg') });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^3 documents \(3 chunks\) indexed into kb-pg-v1-\d+; 0 failed\n$/);
    const [index] = fake.cluster.resolve('kb-pg');
    assert.equal(index?.searchableCount, 3);
    // The folder's own knowledge.sqlite was never written: the documents came from the database.
    const empty = await yeoul(['reindex', '--data', data], searchUrl('kb-sqlite'));
    assert.match(empty.stdout, /^0 documents/);
  });
});
