import { isYeoulError, yeoulVersion } from '../core/index.ts';
import { commands } from './commands.ts';
import { errorLine } from './error-line.ts';
import { UsageError } from './errors/usage-error.ts';
import { type CliIo, processIo } from './io.ts';
import { commandUsage, mainUsage } from './usage.ts';

/**
 * Runs one `yeoul` command line and resolves to its exit code: 0 success, 1 error,
 * 2 bad usage or a configuration that cannot work. Errors are written to stderr as one
 * line, `yeoul: <message>`; a configuration's problems a line each.
 * @example
 * process.exitCode = await runCli(process.argv.slice(2));
 */
export async function runCli(args: string[], io: CliIo = processIo()): Promise<number> {
  try {
    return await dispatch(args, io);
  } catch (error) {
    // A config that cannot work: every problem on a line of its own, each with its path.
    const { problems, file } = error as { problems?: unknown; file?: unknown };
    const listed = Array.isArray(problems) && problems.length > 0;
    if (isYeoulError(error, 'config_invalid') && listed && typeof file === 'string') {
      io.stderr.write(`yeoul: ${file} cannot be used:\n`);
      for (const problem of problems) io.stderr.write(`  ${String(problem)}\n`);
      return 2;
    }
    // Bad environment values (the model's included): a line each, every variable named.
    // Other configuration problems (a database lacking migrations, say) are errors: exit 1.
    const badVariables =
      isYeoulError(error, 'config_invalid') &&
      (error as { environment?: unknown }).environment === true;
    if ((badVariables || isYeoulError(error, 'model_config')) && listed) {
      for (const problem of problems) io.stderr.write(errorLine(String(problem)));
      return 2;
    }
    io.stderr.write(errorLine(error));
    // Bad environment variables refuse the start as bad usage does, every one named.
    return isYeoulError(error, 'usage') || badVariables ? 2 : 1;
  }
}

async function dispatch(args: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined) throw new UsageError({ problem: 'missing command' });
  if (name === '--help' || name === '-h') return print(io, mainUsage(yeoulVersion));
  if (name === '--version' || name === '-v') return print(io, `${yeoulVersion}\n`);
  if (name === 'help') {
    if (rest.length === 0) return print(io, mainUsage(yeoulVersion));
    const command = commands.find((candidate) => candidate.name === rest[0]);
    if (command === undefined) throw new UsageError({ problem: `unknown command "${rest[0]}"` });
    return print(io, commandUsage(command));
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (command === undefined) {
    throw new UsageError({
      problem: name.startsWith('-') ? `unknown option ${name}` : `unknown command "${name}"`,
    });
  }
  const beforeSeparator = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (beforeSeparator.includes('--help') || beforeSeparator.includes('-h')) {
    return print(io, commandUsage(command));
  }
  return command.run(rest, io);
}

function print(io: CliIo, text: string): number {
  io.stdout.write(text);
  return 0;
}
