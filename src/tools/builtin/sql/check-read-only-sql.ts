/** A query fit to run (the first statement only, without its `;`), or why it is refused. */
export type SqlCheck = { ok: true; statement: string } | { ok: false; problem: string };

/**
 * Checks the text of a query before SQLite sees it: not empty, one statement only (a `;`
 * outside strings, quoted names and comments may only be followed by more of them), and
 * starting with SELECT or WITH. What the statement does is checked again by SQLite itself
 * (read-only connection and an authorizer), so this only has to be right about the text.
 */
export function checkReadOnlySql(sql: string): SqlCheck {
  const scan = scanStatement(sql);
  if (scan.firstWord === undefined) return { ok: false, problem: 'the query is empty' };
  if (scan.trailing) {
    return {
      ok: false,
      problem: 'only one statement is allowed per query; remove everything after the first ";"',
    };
  }
  const keyword = scan.firstWord.toUpperCase();
  if (keyword !== 'SELECT' && keyword !== 'WITH') {
    return {
      ok: false,
      problem: `only read-only SELECT queries are allowed (optionally starting with WITH); this one starts with ${keyword}`,
    };
  }
  return { ok: true, statement: sql.slice(0, scan.end) };
}

interface Scan {
  /** The first word outside comments, if any. */
  firstWord: string | undefined;
  /** Where the first statement ends: its `;`, or the end of the text. */
  end: number;
  /** Whether anything but whitespace, comments and `;` follows that. */
  trailing: boolean;
}

const closingQuote: Record<string, string> = { "'": "'", '"': '"', '`': '`', '[': ']' };

function scanStatement(sql: string): Scan {
  let firstWord: string | undefined;
  let end = sql.length;
  let index = 0;
  while (index < sql.length) {
    const char = sql[index] as string;
    const next = sql[index + 1];
    if (char === '-' && next === '-') {
      const newline = sql.indexOf('\n', index + 2);
      index = newline === -1 ? sql.length : newline + 1;
    } else if (char === '/' && next === '*') {
      const close = sql.indexOf('*/', index + 2);
      index = close === -1 ? sql.length : close + 2;
    } else if (/\s/.test(char)) {
      index += 1;
    } else if (char === ';') {
      if (end === sql.length) end = index;
      index += 1;
    } else if (end !== sql.length) {
      return { firstWord, end, trailing: true };
    } else if (char in closingQuote) {
      index = skipQuoted(sql, index, closingQuote[char] as string);
      firstWord ??= char;
    } else {
      if (firstWord === undefined) firstWord = /^[A-Za-z_]+/.exec(sql.slice(index))?.[0] ?? char;
      index += 1;
    }
  }
  return { firstWord, end, trailing: false };
}

/** The index after a quoted string or name that opens at `start`; doubled quotes escape. */
function skipQuoted(sql: string, start: number, close: string): number {
  let index = start + 1;
  while (index < sql.length) {
    if (sql[index] === close) {
      if (close !== ']' && sql[index + 1] === close) index += 2;
      else return index + 1;
    } else {
      index += 1;
    }
  }
  return sql.length;
}
