/** A label matcher or label filter of the LogQL subset the fake Loki understands. */
interface Comparison {
  label: string;
  operator: '=' | '!=' | '=~' | '!~' | '==' | '>' | '>=' | '<' | '<=';
  value: string;
  /** Numeric comparison (the value was written as a number). */
  numeric: boolean;
}

type Stage =
  | { kind: 'line'; operator: '|=' | '!=' | '|~' | '!~'; value: string }
  | { kind: 'json' }
  | { kind: 'label'; filter: Comparison };

/** A parsed LogQL log query: stream selector and pipeline. */
export interface LogSelector {
  matchers: Comparison[];
  stages: Stage[];
}

/** A parsed query: a log query, or `sum(count_over_time(<log query> [range]))`. */
export type ParsedLogQl =
  | { kind: 'log'; selector: LogSelector }
  | { kind: 'count'; selector: LogSelector; rangeNs: bigint };

/** A query the fake does not implement or that is not LogQL; its message is Loki's 400 text. */
export class LogQlParseError extends Error {}

const tokenPattern =
  /\s*(?:("(?:[^"\\]|\\.)*")|(\[\d+(?:ms|s|m|h|d)\])|(\|=|\|~|!=|!~|=~|==|>=|<=|[{}(),|=<>])|(-?\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_]*))/y;
const unitNs: Record<string, bigint> = {
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
  d: 86_400_000_000_000n,
};

/** Parses the LogQL subset Yeoul sends; throws {@link LogQlParseError} on anything else. */
export function parseLogQl(text: string): ParsedLogQl {
  const tokens = tokenize(text);
  let position = 0;
  const peek = () => tokens[position];
  const next = () => {
    const token = tokens[position];
    if (token === undefined) throw new LogQlParseError('parse error : unexpected end of query');
    position += 1;
    return token;
  };
  const expect = (token: string) => {
    const found = next();
    if (found !== token)
      throw new LogQlParseError(
        `parse error : syntax error: unexpected ${found}, expecting ${token}`,
      );
  };
  const readSelector = (): LogSelector => {
    expect('{');
    const matchers: Comparison[] = [];
    do {
      matchers.push(readComparison(next, ['=', '!=', '=~', '!~']));
    } while (peek() === ',' && next());
    expect('}');
    const stages: Stage[] = [];
    for (
      let token = peek();
      token !== undefined && /^(\|=|\|~|!=|!~|\|)$/.test(token);
      token = peek()
    ) {
      next();
      if (token !== '|') {
        stages.push({ kind: 'line', operator: token as '|=', value: unquote(next()) });
      } else if (peek() === 'json') {
        next();
        stages.push({ kind: 'json' });
      } else {
        stages.push({
          kind: 'label',
          filter: readComparison(next, ['=', '!=', '=~', '!~', '==', '>', '>=', '<', '<=']),
        });
      }
    }
    return { matchers, stages };
  };
  let parsed: ParsedLogQl;
  if (peek() === 'sum') {
    next();
    expect('(');
    if (next() !== 'count_over_time')
      throw new LogQlParseError(
        'parse error : only sum(count_over_time(...)) is implemented by the fake',
      );
    expect('(');
    const selector = readSelector();
    const range = next();
    const match = /^\[(\d+)(ms|s|m|h|d)\]$/.exec(range);
    if (!match)
      throw new LogQlParseError(`parse error : syntax error: unexpected ${range}, expecting RANGE`);
    expect(')');
    expect(')');
    parsed = {
      kind: 'count',
      selector,
      rangeNs: BigInt(match[1] as string) * (unitNs[match[2] as string] as bigint),
    };
  } else {
    parsed = { kind: 'log', selector: readSelector() };
  }
  if (position !== tokens.length)
    throw new LogQlParseError(`parse error : syntax error: unexpected ${tokens[position]}`);
  if (parsed.selector.matchers.every((matcher) => compare(matcher, ''))) {
    throw new LogQlParseError(
      'parse error : queries require at least one regexp or equality matcher that does not have an empty-compatible value',
    );
  }
  return parsed;
}

function readComparison(next: () => string, operators: string[]): Comparison {
  const label = next();
  if (!/^[A-Za-z_]\w*$/.test(label))
    throw new LogQlParseError(
      `parse error : syntax error: unexpected ${label}, expecting IDENTIFIER`,
    );
  const operator = next();
  if (!operators.includes(operator))
    throw new LogQlParseError(`parse error : syntax error: unexpected ${operator}`);
  const raw = next();
  const numeric = /^-?\d/.test(raw);
  if (numeric && !['==', '=', '!=', '>', '>=', '<', '<='].includes(operator)) {
    throw new LogQlParseError(`parse error : syntax error: unexpected NUMBER after ${operator}`);
  }
  if (!numeric && ['>', '>=', '<', '<=', '=='].includes(operator)) {
    throw new LogQlParseError(`parse error : syntax error: unexpected STRING after ${operator}`);
  }
  return {
    label,
    operator: operator as Comparison['operator'],
    value: numeric ? raw : unquote(raw),
    numeric,
  };
}

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  tokenPattern.lastIndex = 0;
  while (tokenPattern.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(tokenPattern.lastIndex))) break;
    const start = tokenPattern.lastIndex;
    const match = tokenPattern.exec(text);
    if (match === null)
      throw new LogQlParseError(
        `parse error at col ${start + 1}: syntax error: unexpected character`,
      );
    tokens.push(match.slice(1).find((group) => group !== undefined) as string);
  }
  return tokens;
}

function unquote(token: string): string {
  if (!token.startsWith('"'))
    throw new LogQlParseError(`parse error : syntax error: unexpected ${token}, expecting STRING`);
  return JSON.parse(token) as string;
}

/** Go's RE2 `(?i)`/`(?s)` prefix becomes JavaScript flags. */
export function goRegExp(pattern: string, anchored: boolean): RegExp {
  const flags = /^\(\?([is]+)\)/.exec(pattern);
  const body = flags ? pattern.slice(flags[0].length) : pattern;
  return new RegExp(anchored ? `^(?:${body})$` : body, `u${flags?.[1] ?? ''}`);
}

/** A string comparison of a label's value (missing labels are empty); numeric ones in {@link applyStages}. */
export function compare(comparison: Comparison, value: string): boolean {
  switch (comparison.operator) {
    case '=':
    case '==':
      return value === comparison.value;
    case '!=':
      return value !== comparison.value;
    case '=~':
      return goRegExp(comparison.value, true).test(value);
    case '!~':
      return !goRegExp(comparison.value, true).test(value);
    default:
      return false;
  }
}

/**
 * Runs the pipeline on one entry: the labels it ends with (stream labels, extracted JSON
 * fields, `__error__`), or undefined when a stage filtered it out. Like Loki, a numeric filter
 * on a value that is no number keeps the line and marks it `__error__="LabelFilterErr"`.
 */
export function applyStages(stages: Stage[], line: string, streamLabels: Record<string, string>) {
  const labels: Record<string, string> = { ...streamLabels };
  for (const stage of stages) {
    if (stage.kind === 'line') {
      const found =
        stage.operator === '|=' || stage.operator === '!='
          ? line.includes(stage.value)
          : goRegExp(stage.value, false).test(line);
      if (found !== (stage.operator === '|=' || stage.operator === '|~')) return undefined;
    } else if (stage.kind === 'json') {
      extractJson(line, labels);
    } else if (stage.filter.numeric) {
      const value = Number(labels[stage.filter.label] ?? '');
      if ((labels[stage.filter.label] ?? '') === '' || Number.isNaN(value)) {
        labels.__error__ ??= 'LabelFilterErr';
        continue;
      }
      if (!compareNumbers(stage.filter.operator, value, Number(stage.filter.value)))
        return undefined;
    } else if (!compare(stage.filter, labels[stage.filter.label] ?? '')) {
      return undefined;
    }
  }
  return labels;
}

function compareNumbers(operator: Comparison['operator'], left: number, right: number): boolean {
  if (operator === '>') return left > right;
  if (operator === '>=') return left >= right;
  if (operator === '<') return left < right;
  if (operator === '<=') return left <= right;
  if (operator === '!=') return left !== right;
  return left === right;
}

/** `| json`: top-level fields become labels (nested ones joined with `_`); a non-object line is a JSONParserErr. */
function extractJson(line: string, labels: Record<string, string>): void {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    labels.__error__ ??= 'JSONParserErr';
    return;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    labels.__error__ ??= 'JSONParserErr';
    return;
  }
  const visit = (record: Record<string, unknown>, prefix: string) => {
    for (const [key, field] of Object.entries(record)) {
      const name = `${prefix}${key.replace(/[^A-Za-z0-9_]/g, '_')}`;
      if (typeof field === 'object' && field !== null && !Array.isArray(field)) {
        visit(field as Record<string, unknown>, `${name}_`);
      } else {
        const text =
          field === null ? '' : typeof field === 'string' ? field : JSON.stringify(field);
        // An extracted label that clashes with a stream label gets the `_extracted` suffix.
        labels[name in labels && prefix === '' ? `${name}_extracted` : name] = text;
      }
    }
  };
  visit(value as Record<string, unknown>, '');
}
