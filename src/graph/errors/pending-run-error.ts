import { YeoulError } from '../../core/index.ts';

/** The thread's last run was interrupted (the process died); resume or abandon it first. */
export class PendingRunError extends YeoulError {
  readonly threadId: string;
  readonly runId: string;

  constructor(fields: { threadId: string; runId: string }) {
    super(
      'run_pending',
      `Thread "${fields.threadId}" has an interrupted run (${fields.runId}); resume or abandon it before starting another`,
    );
    this.threadId = fields.threadId;
    this.runId = fields.runId;
  }
}
