import { YeoulError } from '../../core/index.ts';

/** `resume` was called on a thread whose last run already ended (or that has no runs). */
export class NothingToResumeError extends YeoulError {
  readonly threadId: string;

  constructor(fields: { threadId: string }) {
    super('run_not_resumable', `Thread "${fields.threadId}" has no interrupted run to resume`);
    this.threadId = fields.threadId;
  }
}
