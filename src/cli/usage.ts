import { commands } from './commands.ts';
import type { Command } from './define-command.ts';

/** `yeoul --help`: every command with its synopsis, the shared options and the environment. */
export function mainUsage(version: string): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    `yeoul ${version} — a graph-based AI agent server`,
    '',
    'Usage: yeoul <command> [options]',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    `  ${'help'.padEnd(width)}  show this help, or a command's (yeoul help ask)`,
    '',
    'Examples:',
    ...commands.map((command) => `  yeoul ${command.example}`),
    '',
    'Every command that opens the data folder takes --data DIR (default YEOUL_DATA_DIR or ./data).',
    'The model comes from YEOUL_MODEL / OPENAI_API_KEY / ANTHROPIC_API_KEY (else the offline model).',
    'Exit codes: 0 success, 1 error, 2 bad usage.',
    '',
  ].join('\n');
}

/** `yeoul <command> --help`. */
export function commandUsage(command: Command): string {
  return [
    `${command.summary[0]?.toUpperCase()}${command.summary.slice(1)}.`,
    '',
    ...command.usage.map((line, index) => `${index === 0 ? 'Usage: ' : '       '}yeoul ${line}`),
    '',
    ...command.details.map((line) => `  ${line}`),
    '',
    `Example: yeoul ${command.example}`,
    '',
  ].join('\n');
}
