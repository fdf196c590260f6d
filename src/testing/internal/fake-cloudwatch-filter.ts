/** One condition of a JSON filter pattern: `$.field <op> value`. */
interface Condition {
  path: string[];
  operator: '=' | '!=' | '>' | '>=' | '<' | '<=';
  value:
    | { kind: 'string'; text: string }
    | { kind: 'number'; number: number }
    | { kind: 'regex'; pattern: RegExp };
}

/** A filter pattern the fake does not implement, or that CloudWatch would refuse. */
export class FilterPatternError extends Error {}

const conditionPattern =
  /^\$\.([A-Za-z_][\w.]*)\s*(=|!=|>=|<=|>|<)\s*("(?:[^"\\]|\\.)*"|%[^%]+%|-?\d+(?:\.\d+)?)$/;
/** What CloudWatch allows inside `%…%`: ASCII letters and digits, a few symbols, the operators; no `(` `)`. */
const allowedRegex = /^[A-Za-z0-9:_#=@/;,\-^$?[\]{}|\\*+.]+$/;

/**
 * Compiles the CloudWatch Logs filter-pattern subset Yeoul sends: empty (every event) or a
 * JSON pattern `{ cond && cond … }` whose conditions compare a field with a string (with `*`
 * wildcards, case-sensitive), a number, or a `%regex%` (at most two per pattern, CloudWatch's
 * regex alphabet). The result tests one event message; non-JSON messages never match a JSON pattern.
 */
export function compileFilterPattern(pattern: string): (message: string) => boolean {
  const trimmed = pattern.trim();
  if (trimmed === '') return () => true;
  const body = /^\{(.*)\}$/s.exec(trimmed)?.[1];
  if (body === undefined)
    throw new FilterPatternError('Invalid filter pattern: the fake implements only JSON patterns');
  if (/\|\|/.test(body.replace(/%[^%]*%|"(?:[^"\\]|\\.)*"/g, ''))) {
    throw new FilterPatternError('Invalid filter pattern: the fake does not implement ||');
  }
  const conditions = splitConditions(body).map(parseCondition);
  if (conditions.filter((condition) => condition.value.kind === 'regex').length > 2) {
    throw new FilterPatternError(
      'Invalid filter pattern: at most 2 regular expressions are allowed per filter pattern',
    );
  }
  return (message) => {
    let record: unknown;
    try {
      record = JSON.parse(message);
    } catch {
      return false;
    }
    return conditions.every((condition) => test(condition, lookup(record, condition.path)));
  };
}

function splitConditions(body: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (const piece of body.match(/%[^%]*%|"(?:[^"\\]|\\.)*"|&&|[^%"&]+|&/g) ?? []) {
    if (piece === '&&') {
      parts.push(current.trim());
      current = '';
    } else current += piece;
  }
  parts.push(current.trim());
  return parts;
}

function parseCondition(text: string): Condition {
  const match = conditionPattern.exec(text);
  if (match === null)
    throw new FilterPatternError(`Invalid filter pattern: cannot read ${JSON.stringify(text)}`);
  const [, path, operator, raw] = match as unknown as [
    string,
    string,
    Condition['operator'],
    string,
  ];
  if (raw.startsWith('%')) {
    const source = raw.slice(1, -1);
    if (!allowedRegex.test(source) || /[()]/.test(source)) {
      throw new FilterPatternError(`Invalid filter pattern: unsupported regex ${raw}`);
    }
    if (operator !== '=' && operator !== '!=')
      throw new FilterPatternError('Invalid filter pattern: a regex needs = or !=');
    return {
      path: path.split('.'),
      operator,
      value: { kind: 'regex', pattern: new RegExp(source) },
    };
  }
  if (raw.startsWith('"')) {
    if (operator !== '=' && operator !== '!=')
      throw new FilterPatternError('Invalid filter pattern: a string needs = or !=');
    return {
      path: path.split('.'),
      operator,
      value: { kind: 'string', text: JSON.parse(raw) as string },
    };
  }
  return { path: path.split('.'), operator, value: { kind: 'number', number: Number(raw) } };
}

function lookup(record: unknown, path: string[]): unknown {
  let value = record;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function test(condition: Condition, field: unknown): boolean {
  const { value, operator } = condition;
  if (value.kind === 'number') {
    if (typeof field !== 'number') return false;
    const compared: Record<Condition['operator'], boolean> = {
      '=': field === value.number,
      '!=': field !== value.number,
      '>': field > value.number,
      '>=': field >= value.number,
      '<': field < value.number,
      '<=': field <= value.number,
    };
    return compared[operator];
  }
  if (typeof field !== 'string' && typeof field !== 'number' && typeof field !== 'boolean')
    return false;
  const text = String(field);
  const found =
    value.kind === 'regex'
      ? value.pattern.test(text)
      : new RegExp(`^${value.text.split('*').map(escapeText).join('.*')}$`, 's').test(text);
  return operator === '=' ? found : !found;
}

function escapeText(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
