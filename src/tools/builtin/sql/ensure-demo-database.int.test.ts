import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { ensureDemoDatabase } from './ensure-demo-database.ts';

describe('ensureDemoDatabase', () => {
  let base: string;
  before(async () => {
    base = await mkdtemp(join(tmpdir(), 'yeoul-demo-db-'));
  });
  after(() => rm(base, { recursive: true, force: true }));

  it('creates the demo company, with folders on the way, and leaves no temporary file', async () => {
    const path = join(base, 'nested', 'data', 'demo.sqlite');
    assert.equal(await ensureDemoDatabase(path), true);
    assert.deepEqual(await readdir(join(base, 'nested', 'data')), ['demo.sqlite']);
    const database = new DatabaseSync(path, { readOnly: true });
    const count = (table: string) =>
      (database.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    assert.equal(count('teams'), 5);
    assert.equal(count('employees'), 25);
    assert.equal(count('budgets'), 15);
    const years = database.prepare('SELECT DISTINCT year FROM budgets ORDER BY year').all();
    assert.deepEqual(
      years.map((row) => row.year),
      [2023, 2024, 2025],
    );
    const oneEok = database
      .prepare(
        'SELECT t.name FROM budgets b JOIN teams t ON t.id = b.team_id WHERE b.year = 2024 AND b.amount = 100000000',
      )
      .all();
    assert.deepEqual(
      oneEok.map((row) => row.name),
      ['데이터분석팀'],
    );
    const orphans = database
      .prepare('SELECT count(*) AS n FROM employees WHERE team_id NOT IN (SELECT id FROM teams)')
      .get() as { n: number };
    assert.equal(orphans.n, 0);
    database.close();
  });

  it('leaves an existing file alone', async () => {
    const path = join(base, 'existing.sqlite');
    await writeFile(path, 'not a database');
    assert.equal(await ensureDemoDatabase(path), false);
    assert.deepEqual(
      await readdir(base).then((names) => names.filter((name) => name.startsWith('existing'))),
      ['existing.sqlite'],
    );
  });

  it('creates the file exactly once when called many times at once', async () => {
    const path = join(base, 'race', 'demo.sqlite');
    const created = await Promise.all(Array.from({ length: 6 }, () => ensureDemoDatabase(path)));
    assert.equal(created.filter(Boolean).length, 1);
    assert.deepEqual(await readdir(join(base, 'race')), ['demo.sqlite']);
    const database = new DatabaseSync(path, { readOnly: true });
    assert.equal(database.prepare('SELECT count(*) AS n FROM employees').get()?.n, 25);
    database.close();
  });
});
