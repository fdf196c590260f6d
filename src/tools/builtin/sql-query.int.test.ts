import assert from 'node:assert/strict';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createToolEnvironment } from '../environment.ts';
import { ToolRegistry } from '../registry.ts';
import { ToolExecutor } from '../tool-executor.ts';
import { runQueryInChildProcess } from './sql/run-query-in-child-process.ts';
import { sqlQueryTool } from './sql-query.ts';

const runaway =
  'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c';

describe('sql_query', () => {
  let base: string;
  let databasePath: string;
  const call = (args: unknown, signal?: AbortSignal) =>
    new ToolExecutor(new ToolRegistry().register(sqlQueryTool), {
      env: createToolEnvironment({ dataDir: base, sqlDatabasePath: databasePath }),
      ...(signal ? { signal } : {}),
    }).execute({ id: 'call-1', name: 'sql_query', args });

  before(async () => {
    base = await mkdtemp(join(tmpdir(), 'yeoul-sql-'));
    databasePath = join(base, 'data', 'demo.sqlite');
  });
  after(() => rm(base, { recursive: true, force: true }));

  it('creates the demo database on first use and answers the 2024 budget question', async () => {
    const result = await call({
      query:
        "SELECT t.name, b.amount FROM budgets b JOIN teams t ON t.id = b.team_id WHERE b.year = 2024 AND t.name_en = 'Data Analytics'",
    });
    assert.equal(result.isError, false, result.content);
    assert.deepEqual(JSON.parse(result.content), {
      columns: ['name', 'amount'],
      rows: [['데이터분석팀', 100000000]],
      rowCount: 1,
      truncated: false,
    });
    await access(databasePath);
  });

  it('returns at most 100 rows of a 10 000-row result and says how many more there are', async () => {
    const result = await call({
      query:
        'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 10000) SELECT x FROM c',
    });
    const body = JSON.parse(result.content);
    assert.equal(body.rowCount, 100);
    assert.equal(body.rows.length, 100);
    assert.equal(body.truncated, true);
    assert.match(body.note, /^9900 more rows not shown/);
  });

  for (const [query, pattern] of [
    [
      "INSERT INTO teams VALUES (9, '해킹팀', 'Hack', 'x', '2025-01-01')",
      /not INSERT|starts with INSERT/,
    ],
    ['UPDATE employees SET salary = 0', /starts with UPDATE/],
    ['DELETE FROM budgets', /starts with DELETE/],
    ['DROP TABLE teams', /starts with DROP/],
    ['SELECT 1; DROP TABLE teams', /only one statement is allowed/],
    ["ATTACH DATABASE '/tmp/evil.db' AS evil", /starts with ATTACH/],
    ['DETACH DATABASE main', /starts with DETACH/],
    ['PRAGMA writable_schema = 1', /starts with PRAGMA/],
    ['VACUUM', /starts with VACUUM/],
    ["SELECT load_extension('x')", /load_extension\(\) is not allowed/],
    ['WITH gone AS (SELECT 1) DELETE FROM budgets', /DELETE is not allowed/],
    ["SELECT * FROM pragma_table_info('teams')", /PRAGMA table_info is not allowed/],
    ['', /the query is empty/],
    ['  ;  -- nothing', /the query is empty/],
    ['SELECT name FROM employes', /^Error: SQL error: no such table: employes$/],
    ['SELEC name FROM teams', /starts with SELEC/],
    ['SELECT name FROM teams WHERE', /^Error: SQL error: incomplete input$/],
  ] as const) {
    it(`refuses ${JSON.stringify(query)} with a clear error`, async () => {
      const result = await call({ query });
      assert.equal(result.isError, true);
      assert.match(result.content, /^Error: /);
      assert.match(result.content, pattern);
      assert.ok(!result.content.includes(base), 'no host path in the message');
    });
  }

  it('leaves every table as it was after the refused statements', async () => {
    const result = await call({
      query:
        'SELECT (SELECT count(*) FROM teams), (SELECT count(*) FROM employees), (SELECT sum(amount) FROM budgets)',
    });
    assert.deepEqual(JSON.parse(result.content).rows, [[5, 25, 5_285_000_000]]);
  });

  it('stops a runaway recursive query within the 5 s limit', async () => {
    const started = performance.now();
    const result = await call({ query: runaway });
    const seconds = (performance.now() - started) / 1000;
    assert.equal(
      result.content,
      'Error: the query ran longer than 5 s and was stopped; add a LIMIT or simplify it',
    );
    assert.ok(seconds < 10, `took ${seconds} s`);
  });

  it('kills the query process when the request is cancelled', async () => {
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 300);
    const outcome = await runQueryInChildProcess(
      { databasePath, sql: runaway, maxRows: 100 },
      { timeoutMs: 5_000, signal: controller.signal },
    );
    assert.deepEqual(outcome, { ok: false, problem: 'the query was cancelled' });
    // Before the 5 s limit would have stopped it.
    assert.ok(performance.now() - started < 4_500);
  });

  it('refuses an overlong query as invalid arguments', async () => {
    const result = await call({ query: `SELECT ${'1 + '.repeat(5000)}1` });
    assert.match(
      result.content,
      /^Error: invalid arguments for sql_query: query: queries are limited to 10000 characters/,
    );
  });
});
