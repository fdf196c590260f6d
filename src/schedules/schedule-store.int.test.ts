import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  openSqliteDatabase,
  type PostgresServer,
  postgresStores,
  sqliteStores,
  startPostgresServer,
} from '../testing/internal/index.ts';
import { PostgresScheduleStore } from './postgres-schedule-store.ts';
import { scheduleMigrations } from './schedule-migrations.ts';
import { scheduleStoreConformance } from './schedule-store-conformance.ts';
import { SqliteScheduleStore } from './sqlite-schedule-store.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-schedules-'));
after(() => rmSync(root, { recursive: true, force: true }));

scheduleStoreConformance('sqlite', () =>
  sqliteStores(root, (database) => new SqliteScheduleStore(database)),
);

let server: PostgresServer;
before(async () => {
  server = await startPostgresServer();
});
after(() => server.stop());

scheduleStoreConformance('postgres', () =>
  postgresStores(server, scheduleMigrations, (pool) => new PostgresScheduleStore(pool)),
);

/** A process that opens the data folder's database and claims every slot it is given. */
const claimer = `
import { DatabaseSync } from 'node:sqlite';
import { SqliteScheduleStore } from ${JSON.stringify(new URL('./sqlite-schedule-store.ts', import.meta.url).href)};
const [path, id, ...slots] = process.argv.slice(1);
const database = new DatabaseSync(path);
database.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;');
const store = new SqliteScheduleStore(database);
const won = [];
for (const slot of slots) {
  if (await store.claimSlot(id, Number(slot), 'run-' + process.pid + '-' + slot)) won.push(Number(slot));
}
process.stdout.write(JSON.stringify(won));
database.close();
`;

describe('SQLite slot claims across processes', () => {
  it('gives each slot to exactly one of two processes racing on one file', async () => {
    const path = join(mkdtempSync(join(root, 'race-')), 'threads.sqlite');
    const database = openSqliteDatabase(path);
    const store = new SqliteScheduleStore(database);
    const schedule = await store.create({
      owner: 'alice',
      name: null,
      cron: '* * * * * *',
      timezone: 'UTC',
      message: 'tick',
      graph: 'react',
      sessionId: null,
      options: {},
      onBusy: 'enqueue',
      webhook: null,
      enabled: true,
      nextRunAt: 0,
    });
    database.close();
    const slots = Array.from({ length: 200 }, (_, index) => String(index * 1000));
    const race = () =>
      new Promise<number[]>((resolve, reject) => {
        execFile(
          process.execPath,
          ['--input-type=module', '-e', claimer, path, schedule.id, ...slots],
          (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as number[])),
        );
      });
    const [first, second] = await Promise.all([race(), race()]);
    const all = [...(first ?? []), ...(second ?? [])].sort((a, b) => a - b);
    assert.deepEqual(all, slots.map(Number));
  });
});
