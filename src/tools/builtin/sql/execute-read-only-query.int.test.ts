import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureDemoDatabase } from './ensure-demo-database.ts';
import { executeReadOnlyQuery } from './execute-read-only-query.ts';
import { openReadOnlyDatabase } from './open-read-only-database.ts';

describe('executeReadOnlyQuery', () => {
  let base: string;
  let databasePath: string;
  const run = (sql: string, maxRows = 100) => executeReadOnlyQuery({ databasePath, sql, maxRows });
  const problemOf = (sql: string) => {
    const outcome = run(sql);
    return outcome.ok ? undefined : outcome.problem;
  };

  before(async () => {
    base = await mkdtemp(join(tmpdir(), 'yeoul-query-'));
    databasePath = join(base, 'demo.sqlite');
    await ensureDemoDatabase(databasePath);
  });
  after(() => rm(base, { recursive: true, force: true }));

  it('returns columns and rows as arrays, duplicate column names included', () => {
    const outcome = run(
      'SELECT t.id, e.id, e.name FROM employees e JOIN teams t ON t.id = e.team_id WHERE e.id <= 2 ORDER BY e.id',
    );
    assert.deepEqual(outcome, {
      ok: true,
      result: {
        columns: ['id', 'id', 'name'],
        rows: [
          [1, 1, '김민준'],
          [1, 2, '이서연'],
        ],
        rowCount: 2,
        truncated: false,
      },
    });
  });

  it('shows the first rows of a long result and counts the rest', () => {
    const outcome = run(
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 10000) SELECT x FROM c',
    );
    assert.ok(outcome.ok);
    assert.equal(outcome.result.rowCount, 100);
    assert.deepEqual(outcome.result.rows.at(-1), [100]);
    assert.equal(outcome.result.truncated, true);
    assert.match(outcome.result.note ?? '', /^9900 more rows not shown/);
  });

  it('turns blobs and long text into short descriptions', () => {
    const outcome = run("SELECT x'00ff10', randomblob(3), printf('%.2000c', 'a')");
    assert.ok(outcome.ok);
    const [blob, random, text] = outcome.result.rows[0] as [string, string, string];
    assert.equal(blob, '<blob, 3 bytes>');
    assert.equal(random, '<blob, 3 bytes>');
    assert.match(text, /^a{1000}… \(1000 more characters\)$/);
  });

  it('stops a query that builds a value past 16 MB, with a clear problem', () => {
    const problem = problemOf(
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 300000) SELECT length(group_concat(printf('%0100d', x))) FROM c",
    );
    assert.match(problem ?? '', /builds a value larger than 16 MB/);
    assert.equal(problemOf('SELECT zeroblob(17 * 1024 * 1024)')?.includes('16 MB'), true);
    // Just under the limit still works.
    assert.deepEqual(run("SELECT length(printf('%.*c', 16000000, 'x'))"), {
      ok: true,
      result: {
        columns: ["length(printf('%.*c', 16000000, 'x'))"],
        rows: [[16000000]],
        rowCount: 1,
        truncated: false,
      },
    });
  });

  it('refuses writes hidden behind WITH, naming the action', () => {
    assert.match(
      problemOf('WITH x AS (SELECT 1) DELETE FROM budgets') ?? '',
      /DELETE is not allowed/,
    );
    assert.match(
      problemOf('WITH x AS (SELECT 1) INSERT INTO teams SELECT * FROM teams') ?? '',
      /INSERT is not allowed/,
    );
    assert.match(
      problemOf('WITH x AS (SELECT 1) UPDATE employees SET salary = 0') ?? '',
      /UPDATE is not allowed/,
    );
  });

  it('refuses pragma functions and load_extension inside a SELECT', () => {
    assert.match(
      problemOf("SELECT * FROM pragma_table_info('teams')") ?? '',
      /PRAGMA table_info is not allowed/,
    );
    assert.match(
      problemOf("SELECT load_extension('/tmp/evil.so')") ?? '',
      /load_extension\(\) is not allowed/,
    );
  });

  it("reports a syntax error and an unknown table with SQLite's words", () => {
    assert.equal(problemOf('SELECT FROM WHERE'), 'SQL error: near "FROM": syntax error');
    assert.equal(problemOf('SELECT * FROM salaries'), 'SQL error: no such table: salaries');
  });

  it('keeps the data unchanged after every refused statement', () => {
    const outcome = run('SELECT count(*), sum(amount) FROM budgets');
    assert.ok(outcome.ok);
    assert.deepEqual(outcome.result.rows, [[15, 5_285_000_000]]);
  });

  it('cannot write through the connection even without the authorizer', () => {
    const database = openReadOnlyDatabase(databasePath);
    try {
      assert.throws(() => database.exec('DELETE FROM budgets'), /readonly|read-only/);
      assert.throws(() =>
        database.exec("ATTACH DATABASE ':memory:' AS scratch; CREATE TABLE scratch.t (x)"),
      );
      assert.throws(() => database.loadExtension('/tmp/evil.so'), /extension/i);
    } finally {
      database.close();
    }
  });

  it('says when the database cannot be opened, without its path', () => {
    const outcome = executeReadOnlyQuery({
      databasePath: join(base, 'missing.sqlite'),
      sql: 'SELECT 1',
      maxRows: 1,
    });
    assert.equal(outcome.ok, false);
    assert.match(outcome.ok ? '' : outcome.problem, /^the database cannot be opened/);
    assert.ok(!(outcome.ok ? '' : outcome.problem).includes(base));
  });
});
