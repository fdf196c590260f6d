import type { DatabaseSync, SQLOutputValue } from 'node:sqlite';
import { checkReadOnlySql } from './check-read-only-sql.ts';
import {
  maxValueBytes,
  openReadOnlyDatabase,
  permitOnlyReading,
} from './open-read-only-database.ts';

/** One query against one database file. */
export interface QueryRequest {
  databasePath: string;
  sql: string;
  /** Rows returned at most (the tool uses 100). */
  maxRows: number;
}

/** What sql_query returns: column names and rows as arrays, in column order. */
export interface QueryResult {
  columns: string[];
  rows: unknown[][];
  /** Rows in `rows`. */
  rowCount: number;
  /** True when the query had more rows than `maxRows`. */
  truncated: boolean;
  /** How many rows were left out, in words, when `truncated`. */
  note?: string;
}

/** A result, or why there is none, in words a model can act on. */
export type QueryOutcome = { ok: true; result: QueryResult } | { ok: false; problem: string };

/** Rows past the shown ones are counted up to this many, and for at most this long. */
const maxCountedRows = 100_000;
const countingBudgetMs = 1_000;
const maxTextLength = 1_000;
/** SQLITE_TOOBIG: a string or blob past the connection's length limit. */
const sqliteTooBig = 18;

/**
 * Runs one read-only query synchronously: the text check, then a read-only connection whose
 * authorizer refuses anything but reading. Blocks until SQLite is done, so the tool runs it
 * in a child process that can be killed (see run-query-in-child-process.ts).
 */
export function executeReadOnlyQuery(request: QueryRequest): QueryOutcome {
  const check = checkReadOnlySql(request.sql);
  if (!check.ok) return check;
  let database: DatabaseSync;
  try {
    database = openReadOnlyDatabase(request.databasePath);
  } catch (error) {
    return { ok: false, problem: `the database cannot be opened: ${messageOf(error)}` };
  }
  const deniedAction = permitOnlyReading(database);
  try {
    const statement = database.prepare(check.statement);
    statement.setReturnArrays(true);
    const columns = statement.columns().map((column) => column.name);
    const rows: unknown[][] = [];
    let more = 0;
    let countingStopped = false;
    let countUntil = Number.POSITIVE_INFINITY;
    for (const row of statement.iterate() as Iterable<SQLOutputValue[]>) {
      if (rows.length < request.maxRows) {
        rows.push(row.map(toJsonValue));
        if (rows.length === request.maxRows) countUntil = performance.now() + countingBudgetMs;
        continue;
      }
      more += 1;
      if (more >= maxCountedRows || performance.now() > countUntil) {
        countingStopped = true;
        break;
      }
    }
    const result: QueryResult = { columns, rows, rowCount: rows.length, truncated: more > 0 };
    if (more > 0) {
      result.note =
        `${countingStopped ? 'at least ' : ''}${more} more rows not shown; ` +
        'narrow the query with WHERE, LIMIT/OFFSET or an aggregate such as count(*)';
    }
    return { ok: true, result };
  } catch (error) {
    const denied = deniedAction();
    if (denied !== undefined) {
      return {
        ok: false,
        problem: `the query was refused: ${denied} is not allowed; sql_query only runs read-only SELECT queries`,
      };
    }
    const message = messageOf(error);
    if ((error as { errcode?: number }).errcode === sqliteTooBig) {
      return {
        ok: false,
        problem: `the query builds a value larger than ${maxValueBytes / 1024 / 1024} MB, which is not allowed; aggregate less or add a LIMIT`,
      };
    }
    if (/readonly|read-only/i.test(message)) {
      return { ok: false, problem: 'the query tries to change the database, which is read-only' };
    }
    return { ok: false, problem: `SQL error: ${message}` };
  } finally {
    database.close();
  }
}

function toJsonValue(value: SQLOutputValue): unknown {
  if (value instanceof Uint8Array) return `<blob, ${value.byteLength} bytes>`;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string' && value.length > maxTextLength) {
    return `${value.slice(0, maxTextLength)}… (${value.length - maxTextLength} more characters)`;
  }
  return value;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
