import { YeoulError } from '../../core/index.ts';

/**
 * The thread's last run has not ended: it is still going in another process (`live`), or
 * it was interrupted when its process died — then resume or abandon it first.
 */
export class PendingRunError extends YeoulError {
  readonly threadId: string;
  readonly runId: string;
  readonly live: boolean;

  constructor(fields: { threadId: string; runId: string; live?: boolean }) {
    super(
      'run_pending',
      fields.live
        ? `Thread "${fields.threadId}" has a run (${fields.runId}) going in another process; try again when it ends`
        : `Thread "${fields.threadId}" has an interrupted run (${fields.runId}); resume or abandon it before starting another`,
    );
    this.live = fields.live ?? false;
    this.threadId = fields.threadId;
    this.runId = fields.runId;
  }
}
