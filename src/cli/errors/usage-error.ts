import { YeoulError } from '../../core/index.ts';

/** The command line was not understood: an unknown command or option, a missing or bad argument. */
export class UsageError extends YeoulError {
  /** The command the problem is in, when one was recognised (for the help hint). */
  readonly command: string | undefined;

  constructor(fields: { problem: string; command?: string }) {
    const help = fields.command ? `yeoul ${fields.command} --help` : 'yeoul --help';
    super('usage', `${fields.problem} (see "${help}")`);
    this.command = fields.command;
  }
}
