import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type PostgresServer,
  runYeoul,
  startPostgresServer,
} from '../src/testing/internal/index.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-migrate-'));
let server: PostgresServer;
before(async () => {
  server = await startPostgresServer();
});
after(async () => {
  await server.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('yeoul migrate', () => {
  it('lists pending migrations, applies them in order, then reports the database up to date', async () => {
    const env = { DATABASE_URL: await server.createDatabase() };
    const before = await runYeoul(['migrate', '--status'], { env });
    assert.equal(before.code, 0, before.stderr);
    assert.match(before.stdout, /^\s+100 {2}knowledge_base\s+pending$/m);
    assert.match(before.stdout, /^\s+200 {2}graph_segments\s+pending$/m);
    const applied = await runYeoul(['migrate'], { env });
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(
      applied.stdout,
      /applied \d+ migrations to 127\.0\.0\.1:\d+\/yeoul_\d+: 100 knowledge_base, 101 knowledge_index_outbox, 200 graph_segments, 201 graph_running_threads, 202 graph_append_in_one_statement, 203 graph_append_rows, 300 server_sessions/,
    );
    const again = await runYeoul(['migrate'], { env });
    assert.match(again.stdout, /is up to date \(\d+ migrations\)/);
    const after = await runYeoul(['migrate', '--status'], { env });
    assert.match(after.stdout, /^\s+300 {2}server_sessions\s+applied {2}\d{4}-\d\d-\d\dT/m);
    assert.match(after.stdout, /^\s+900 {2}guardrail_vault\s+applied {2}\d{4}-\d\d-\d\dT/m);
    assert.match(after.stdout, /^\s+901 {2}webhook_deliveries\s+applied {2}\d{4}-\d\d-\d\dT/m);
    assert.match(after.stdout, /^\s+920 {2}schedules\s+applied {2}\d{4}-\d\d-\d\dT/m);
    assert.match(after.stdout, /^\s+921 {2}schedule_metadata\s+applied {2}\d{4}-\d\d-\d\dT/m);
    assert.match(after.stdout, /^\s+940 {2}server_runs\s+applied {2}\d{4}-\d\d-\d\dT/m);
    assert.match(
      after.stdout,
      /^\s+941 {2}server_runs_session_created\s+applied {2}\d{4}-\d\d-\d\dT/m,
    );
  });

  it('exits 1 with a clear line without DATABASE_URL or with an unreachable database', async () => {
    const unset = await runYeoul(['migrate']);
    assert.equal(unset.code, 1);
    assert.match(unset.stderr, /DATABASE_URL is not set/);
    const away = await runYeoul(['migrate'], {
      env: { DATABASE_URL: 'postgres://yeoul:secret@127.0.0.1:9/yeoul' },
    });
    assert.equal(away.code, 1);
    assert.match(
      away.stderr,
      /^yeoul: The postgres store at 127\.0\.0\.1:9\/yeoul is unavailable/m,
    );
    assert.doesNotMatch(away.stderr, /secret/);
  });

  it('makes yeoul serve --no-migrate refuse a database that lacks migrations, naming yeoul migrate', async () => {
    const env = { DATABASE_URL: await server.createDatabase() };
    const refused = await runYeoul(
      ['serve', '--port', '0', '--data', join(root, 'refused'), '--no-migrate'],
      {
        env,
        timeoutMs: 30_000,
      },
    );
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /not up to date .*run "yeoul migrate"/);
  });
});
