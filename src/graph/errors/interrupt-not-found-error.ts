import { YeoulError } from '../../core/index.ts';

/** An answer named an interrupt the thread never asked. */
export class InterruptNotFoundError extends YeoulError {
  readonly threadId: string;
  readonly interruptIds: string[];

  constructor(fields: { threadId: string; interruptIds: string[] }) {
    super(
      'interrupt_not_found',
      `Thread "${fields.threadId}" has no interrupt ${fields.interruptIds.map((id) => `"${id}"`).join(', ')}`,
    );
    this.threadId = fields.threadId;
    this.interruptIds = fields.interruptIds;
  }
}
