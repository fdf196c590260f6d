import type { CliIo } from './io.ts';

/** One `yeoul <name>` command: its help and what it does. */
export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The synopsis lines, without the leading `yeoul `. */
  usage: string[];
  /** Option and argument descriptions, one per line, for `yeoul <name> --help`. */
  details: string[];
  /** An example command line, without the leading `yeoul `. */
  example: string;
  /** Runs the command on its arguments (after the name); resolves to the exit code. */
  run(args: string[], io: CliIo): Promise<number>;
}

/** Declares a command (a typed identity function). */
export function defineCommand(command: Command): Command {
  return command;
}
