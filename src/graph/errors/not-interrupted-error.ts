import { YeoulError } from '../../core/index.ts';

/** Answers were given for a thread whose run is not paused on a question. */
export class NotInterruptedError extends YeoulError {
  readonly threadId: string;

  constructor(fields: { threadId: string }) {
    super('run_not_interrupted', `Thread "${fields.threadId}" is not waiting for any answer`);
    this.threadId = fields.threadId;
  }
}
