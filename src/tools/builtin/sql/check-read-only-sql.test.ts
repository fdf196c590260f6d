import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkReadOnlySql } from './check-read-only-sql.ts';

const problemOf = (sql: string) => {
  const check = checkReadOnlySql(sql);
  return check.ok ? undefined : check.problem;
};

describe('checkReadOnlySql', () => {
  it('accepts SELECT and WITH in any case, after comments and whitespace', () => {
    for (const sql of [
      'SELECT 1',
      '  select * from teams',
      'with t as (select 1) select * from t',
      '-- the teams\nSELECT name FROM teams',
      '/* budgets; per year */ SELECT * FROM budgets',
    ]) {
      assert.equal(problemOf(sql), undefined, sql);
    }
  });

  it('accepts a trailing semicolon, comments and whitespace, and drops them', () => {
    const check = checkReadOnlySql('SELECT 1; -- done\n ;; /* end */ ');
    assert.deepEqual(check, { ok: true, statement: 'SELECT 1' });
  });

  it('ignores semicolons inside strings, quoted names and comments', () => {
    for (const sql of [
      "SELECT 'a; DROP TABLE teams'",
      "SELECT 'it''s; fine'",
      'SELECT "odd;name" FROM teams',
      'SELECT [odd;name] FROM teams',
      'SELECT `odd;name` FROM teams',
      'SELECT 1 -- ; DROP TABLE teams',
      'SELECT 1 /* ; DROP TABLE teams */',
    ]) {
      const check = checkReadOnlySql(sql);
      assert.ok(check.ok, sql);
      assert.equal(check.statement, sql);
    }
  });

  it('refuses a second statement after the first', () => {
    for (const sql of [
      'SELECT 1; DROP TABLE teams',
      'SELECT 1;DELETE FROM budgets',
      "SELECT 'x'; ATTACH DATABASE 'evil.db' AS evil",
      'SELECT 1; /* c */ SELECT 2',
      'SELECT "a""b"; PRAGMA writable_schema = 1',
    ]) {
      assert.match(problemOf(sql) ?? '', /only one statement is allowed/, sql);
    }
  });

  it('refuses statements that do not start with SELECT or WITH, naming the keyword', () => {
    for (const [sql, keyword] of [
      ['INSERT INTO teams VALUES (9, "x", "x", "x", "x")', 'INSERT'],
      ['update employees set salary = 0', 'UPDATE'],
      ['DELETE FROM budgets', 'DELETE'],
      ['DROP TABLE teams', 'DROP'],
      ["ATTACH DATABASE '/tmp/x.db' AS x", 'ATTACH'],
      ['DETACH DATABASE x', 'DETACH'],
      ['PRAGMA table_info(teams)', 'PRAGMA'],
      ['VACUUM', 'VACUUM'],
      ['  -- hidden\n/* more */ REPLACE INTO teams VALUES (1)', 'REPLACE'],
      ['(SELECT 1)', '('],
    ] as const) {
      const problem = problemOf(sql) ?? '';
      assert.ok(problem.endsWith(`starts with ${keyword}`), `${sql}: ${problem}`);
    }
  });

  it('calls a query of only whitespace, semicolons or comments empty', () => {
    for (const sql of ['', '   ', ';', '-- nothing', '/* nothing */ ;']) {
      assert.equal(problemOf(sql), 'the query is empty', JSON.stringify(sql));
    }
  });
});
