import { YeoulError } from '../../core/index.ts';

/** A run stopped because its AbortSignal fired; steps committed before that stay. */
export class RunCancelledError extends YeoulError {
  readonly runId: string;

  constructor(fields: { runId: string; cause?: unknown }) {
    super('run_cancelled', `Run ${fields.runId} was cancelled`, { cause: fields.cause });
    this.runId = fields.runId;
  }
}
