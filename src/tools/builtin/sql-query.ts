import { z } from 'zod';
import { defineTool } from '../define-tool.ts';
import { checkReadOnlySql } from './sql/check-read-only-sql.ts';
import { ensureDemoDatabase } from './sql/ensure-demo-database.ts';
import { readOnlySandboxAvailable } from './sql/open-read-only-database.ts';
import { runQueryInChildProcess } from './sql/run-query-in-child-process.ts';

/** Rows one query returns at most. */
export const maxQueryRows = 100;

/** How long one query may run before its process is killed. */
export const queryTimeoutMs = 5_000;

const maxSqlLength = 10_000;

/**
 * The `sql_query` tool: one read-only SELECT on the SQLite database at
 * `env.sqlDatabasePath` (the demo company database, created on first use when the file is
 * missing). Limits: one statement, SELECT or WITH only, read-only connection with an
 * authorizer (no PRAGMA, ATTACH, writes, load_extension), 100 rows, 5 s in a killable process.
 * Offered only where node:sqlite has the authorizer (Node 24; not Node 22).
 */
export const sqlQueryTool = defineTool({
  name: 'sql_query',
  description:
    'Runs one read-only SQLite SELECT query (WITH … SELECT allowed) on the company database and ' +
    'returns JSON {columns, rows, rowCount, truncated}; at most 100 rows, 5 seconds. Tables: ' +
    'teams(id, name [Korean, e.g. 데이터분석팀], name_en, location, founded_on); ' +
    'employees(id, name [Korean], name_en, team_id → teams.id, role, salary [yearly KRW], hired_on, email); ' +
    'budgets(team_id → teams.id, year [2023–2025], amount [KRW; 100000000 = 1억원]). ' +
    'Dates are YYYY-MM-DD text. Other tables: SELECT name, sql FROM sqlite_schema.',
  inputSchema: z.object({
    query: z
      .string()
      .max(maxSqlLength, `queries are limited to ${maxSqlLength} characters`)
      .describe(
        'One SQLite SELECT statement, e.g. SELECT name, salary FROM employees WHERE team_id = 2',
      ),
  }),
  timeoutMs: queryTimeoutMs + 3_000,
  // 100 rows of a few columns; the default cut (4 000 characters) would hide most of them.
  maxResultChars: 12_000,
  isAvailable: readOnlySandboxAvailable,
  async execute({ query }, { env, signal }) {
    const check = checkReadOnlySql(query);
    if (!check.ok) throw new Error(check.problem);
    // Creates the demo database on first use; does nothing when the file exists.
    try {
      await ensureDemoDatabase(env.sqlDatabasePath);
    } catch {
      throw new Error('the database does not exist and the demo database could not be created');
    }
    const outcome = await runQueryInChildProcess(
      { databasePath: env.sqlDatabasePath, sql: check.statement, maxRows: maxQueryRows },
      { timeoutMs: queryTimeoutMs, signal },
    );
    if (!outcome.ok) throw new Error(outcome.problem);
    return outcome.result;
  },
});
