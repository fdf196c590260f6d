import { YeoulError } from '../../core/index.ts';

/** An interrupt was answered already (two answers raced, or one came twice): only the first counts. */
export class InterruptAnsweredError extends YeoulError {
  readonly threadId: string;
  readonly interruptIds: string[];

  constructor(fields: { threadId: string; interruptIds: string[] }) {
    super(
      'interrupt_answered',
      `Interrupt ${fields.interruptIds.map((id) => `"${id}"`).join(', ')} of thread "${fields.threadId}" was answered already`,
    );
    this.threadId = fields.threadId;
    this.interruptIds = fields.interruptIds;
  }
}
