import { YeoulError } from '../../core/index.ts';

/** A new thread (a fork) was asked under an id that a thread already has. */
export class ThreadExistsError extends YeoulError {
  readonly threadId: string;

  constructor(fields: { threadId: string }) {
    super('thread_exists', `Thread "${fields.threadId}" already exists; choose another id`);
    this.threadId = fields.threadId;
  }
}
