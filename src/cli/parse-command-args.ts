import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { UsageError } from './errors/usage-error.ts';

/** The `--data DIR` option of every command that opens the data folder. */
/** `--data DIR` and `--config FILE`: what every command that opens the data folder takes. */
export const dataOption = { data: { type: 'string' }, config: { type: 'string' } } as const;

/**
 * Parses one command's arguments with node:util `parseArgs` (strict: unknown options are
 * refused) and checks the number of positional arguments; every problem is a UsageError.
 * @example
 * const { values, positionals } = parseCommandArgs('search', args, { k: { type: 'string', short: 'k' } }, { min: 1, names: 'QUERY' });
 */
export function parseCommandArgs<const Options extends ParseArgsOptionsConfig>(
  command: string,
  args: string[],
  options: Options,
  positionals: { min: number; max?: number; names: string },
) {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: Options; allowPositionals: true; strict: true }>
  >;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError({ problem: describeParseError(error), command });
  }
  const count = parsed.positionals.length;
  if (count < positionals.min) {
    throw new UsageError({ problem: `missing ${positionals.names}`, command });
  }
  if (positionals.max !== undefined && count > positionals.max) {
    const extra = parsed.positionals.slice(positionals.max).join(' ');
    throw new UsageError({ problem: `unexpected argument "${extra}"`, command });
  }
  return parsed;
}

/** An integer option's value, within bounds; undefined when the option was not given. */
export function integerOption(
  command: string,
  name: string,
  value: string | undefined,
  bounds: { min: number; max: number },
): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || number < bounds.min || number > bounds.max) {
    throw new UsageError({
      problem: `${name} must be a whole number from ${bounds.min} to ${bounds.max}, not "${value}"`,
      command,
    });
  }
  return number;
}

/** A choice option's value; undefined when the option was not given. */
export function choiceOption<const Choice extends string>(
  command: string,
  name: string,
  value: string | undefined,
  choices: readonly Choice[],
): Choice | undefined {
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value)) {
    throw new UsageError({
      problem: `${name} must be one of ${choices.join(', ')}, not "${value}"`,
      command,
    });
  }
  return value as Choice;
}

function describeParseError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const quoted = /'([^']+)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && quoted) return `unknown option ${quoted}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && quoted) {
    const option = quoted.replace(/ <value>$/, '').split(', ')[0] ?? quoted;
    return `option ${option} ${message.includes('argument missing') ? 'needs a value' : 'takes no value'}`;
  }
  return message.split('\n')[0] ?? message;
}
