/** A stored log as Datadog holds it (the `attributes` of a v2 log event). */
export interface FakeDatadogLog {
  id: string;
  /** ISO 8601. */
  timestamp: string;
  /** The log's status (level), as Datadog's status remapper stores it: `error`, `warn`, `info`, … */
  status: string;
  service: string;
  message: string;
  host?: string;
  tags?: string[];
  attributes?: Record<string, unknown>;
}

/** A search query the fake does not implement, answered as Datadog's 400. */
export class DatadogQueryError extends Error {}

const termPattern =
  /\s*(?:(\*)|([a-z_]+|@[A-Za-z0-9_.]+):(?:\[(-?\d+(?:\.\d+)?) TO (-?\d+(?:\.\d+)?)\]|"((?:[^"\\]|\\.)*)"|([^\s"()[\]]+))|"((?:[^"\\]|\\.)*)")(?=\s|$)/y;

/**
 * Compiles the Datadog log search subset Yeoul sends — space-separated terms, all required:
 * `*`; `service:x` and `status:x` (tags, case-insensitive); `@attribute.path:value` (a number
 * compares as a number) and `@attribute.path:[a TO b]` (inclusive); and `"a phrase"`, whole
 * words of the message in order, case-insensitive — and refuses anything else (OR, NOT, `-`,
 * parentheses, wildcards inside words).
 */
export function compileDatadogQuery(query: string): (log: FakeDatadogLog) => boolean {
  const tests: Array<(log: FakeDatadogLog) => boolean> = [];
  termPattern.lastIndex = 0;
  while (termPattern.lastIndex < query.length && query.slice(termPattern.lastIndex).trim() !== '') {
    const start = termPattern.lastIndex;
    const match = termPattern.exec(query);
    if (match === null)
      throw new DatadogQueryError(`Invalid query: cannot parse "${query.slice(start).trim()}"`);
    const [, all, key, from, to, quoted, bare, phrase] = match;
    if (all) continue;
    if (phrase !== undefined) {
      const words = wordsOf(unescapeQuoted(phrase));
      tests.push((log) => containsWords(wordsOf(log.message), words));
      continue;
    }
    const value = quoted !== undefined ? unescapeQuoted(quoted) : bare;
    if (value !== undefined && /[*?]/.test(value))
      throw new DatadogQueryError(
        `Invalid query: the fake does not implement wildcards (${value})`,
      );
    if (key === 'service' || key === 'status') {
      const wanted = (value ?? '').toLowerCase();
      tests.push((log) => log[key].toLowerCase() === wanted);
    } else if (key?.startsWith('@')) {
      const path = key.slice(1).split('.');
      if (from !== undefined) {
        tests.push((log) => {
          const found = Number(lookup(log.attributes, path));
          return found >= Number(from) && found <= Number(to);
        });
      } else {
        tests.push((log) => {
          const found = lookup(log.attributes, path);
          return typeof found === 'number'
            ? found === Number(value)
            : String(found ?? '').toLowerCase() === value?.toLowerCase();
        });
      }
    } else {
      throw new DatadogQueryError(
        `Invalid query: the fake implements only service:, status:, @attributes and phrases, not ${key}:`,
      );
    }
  }
  return (log) => tests.every((test) => test(log));
}

/**
 * Datadog's status remapper: the first letter of a level names the status
 * (`WARNING` → `warn`, `Err` → `error`), as its ingestion does.
 */
export function datadogStatus(level: string): string {
  const lower = level.toLowerCase();
  const byInitial: Record<string, string> = {
    e: 'error',
    w: 'warn',
    i: 'info',
    d: 'debug',
    c: 'critical',
    a: 'alert',
    n: 'notice',
    o: 'ok',
    f: 'emergency',
  };
  if (lower.startsWith('emerg')) return 'emergency';
  return byInitial[lower[0] ?? ''] ?? 'info';
}

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(Boolean);
}

function containsWords(haystack: string[], needle: string[]): boolean {
  if (needle.length === 0) return true;
  for (let start = 0; start + needle.length <= haystack.length; start += 1) {
    if (needle.every((word, offset) => haystack[start + offset] === word)) return true;
  }
  return false;
}

function lookup(record: unknown, path: string[]): unknown {
  let value = record;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function unescapeQuoted(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}
