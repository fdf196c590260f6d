import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runYeoul, startPostgresServer } from '../src/testing/internal/index.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'yeoul-schedules-cli-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

const yeoul = (...args: string[]) =>
  runYeoul(['schedules', ...args, '--data', dataDir], {
    env: { YEOUL_SAMPLE_KNOWLEDGE: 'false' },
    timeoutMs: 60_000,
  });

describe('yeoul schedules', () => {
  it('adds, lists, pauses, resumes and deletes a key owner’s schedule', async () => {
    const added = await yeoul(
      'add',
      '--cron',
      '0 9 * * MON-FRI',
      '--timezone',
      'Asia/Seoul',
      '--message',
      'the daily report',
      '--on-busy',
      'reject',
      '--key',
      'key-a',
    );
    assert.equal(added.code, 0, added.stderr);
    const id = added.stdout.trim();
    const listed = await yeoul('list', '--key', 'key-a');
    assert.match(
      listed.stdout,
      new RegExp(
        `^${id} {2}enabled {2}0 9 \\* \\* MON-FRI {2}Asia/Seoul {2}\\d{4}-\\d\\d-\\d\\dT00:00:00\\.000Z {2}the daily report$`,
        'm',
      ),
    );
    assert.equal((await yeoul('list')).stdout, 'No schedules.\n');
    assert.equal((await yeoul('pause', id)).code, 1);
    assert.equal((await yeoul('pause', id, '--key', 'key-a')).code, 0);
    const paused = JSON.parse((await yeoul('list', '--json', '--key', 'key-a')).stdout);
    assert.equal(paused.schedules[0].enabled, false);
    assert.equal(paused.schedules[0].nextRunAt, null);
    assert.equal((await yeoul('resume', id, '--key', 'key-a')).code, 0);
    const resumed = JSON.parse((await yeoul('list', '--json', '--key', 'key-a')).stdout);
    assert.equal(resumed.schedules[0].enabled, true);
    assert.ok(Date.parse(resumed.schedules[0].nextRunAt) > Date.now());
    assert.equal((await yeoul('delete', id, '--key', 'key-a')).code, 0);
    const gone = await yeoul('delete', id, '--key', 'key-a');
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /no schedule/);
  });

  it('prints the schedule with --json, paused when asked', async () => {
    const added = await yeoul(
      'add',
      '--cron',
      '*/10 * * * * *',
      '--message',
      'tick',
      '--paused',
      '--json',
      '--name',
      'ticker',
    );
    assert.equal(added.code, 0, added.stderr);
    const schedule = JSON.parse(added.stdout);
    assert.equal(schedule.enabled, false);
    assert.equal(schedule.name, 'ticker');
    assert.equal(schedule.timezone, 'UTC');
    assert.equal(schedule.nextRunAt, null);
  });

  it('exits 2 naming a bad cron, timezone, session id or webhook', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--cron', '0 0 30 2 *'], /--cron: .*never fires/],
      [['--cron', 'daily'], /--cron/],
      [['--cron', '0 9 * * *', '--timezone', 'Mars/Base'], /--timezone/],
      [['--cron', '0 9 * * *', '--session', 'a b'], /--session/],
      [['--cron', '0 9 * * *', '--webhook', 'not a url'], /--webhook/],
      [['--cron', '0 9 * * *', '--on-busy', 'later'], /--on-busy/],
    ];
    for (const [options, problem] of cases) {
      const refused = await yeoul('add', ...options, '--message', 'm');
      assert.equal(refused.code, 2, options.join(' '));
      assert.match(refused.stderr, problem);
    }
    assert.equal((await yeoul('add', '--message', 'm')).code, 2);
    assert.equal((await yeoul('pause')).code, 2);
  });
});

describe('yeoul schedules with DATABASE_URL', () => {
  it('keeps the schedules in PostgreSQL, seen by every process on the database', async () => {
    const server = await startPostgresServer();
    try {
      const env = { YEOUL_SAMPLE_KNOWLEDGE: 'false', DATABASE_URL: await server.createDatabase() };
      const options = { env, timeoutMs: 60_000 };
      const added = await runYeoul(
        ['schedules', 'add', '--cron', '*/5 * * * *', '--message', 'pg', '--data', dataDir],
        options,
      );
      assert.equal(added.code, 0, added.stderr);
      const id = added.stdout.trim();
      const elsewhere = mkdtempSync(join(tmpdir(), 'yeoul-schedules-pg-'));
      try {
        const listed = await runYeoul(
          ['schedules', 'list', '--json', '--data', elsewhere],
          options,
        );
        assert.equal(listed.code, 0, listed.stderr);
        assert.deepEqual(
          JSON.parse(listed.stdout).schedules.map((schedule: { id: string }) => schedule.id),
          [id],
        );
      } finally {
        rmSync(elsewhere, { recursive: true, force: true });
      }
      assert.equal(
        (await runYeoul(['schedules', 'delete', id, '--data', dataDir], options)).code,
        0,
      );
    } finally {
      await server.stop();
    }
  });
});
