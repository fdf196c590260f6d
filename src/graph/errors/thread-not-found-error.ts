import { YeoulError } from '../../core/index.ts';

/** An operation named a thread that has no stored entries. */
export class ThreadNotFoundError extends YeoulError {
  readonly threadId: string;

  constructor(fields: { threadId: string }) {
    super('thread_not_found', `Thread "${fields.threadId}" does not exist`);
    this.threadId = fields.threadId;
  }
}
