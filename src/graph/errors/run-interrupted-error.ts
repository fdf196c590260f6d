import { YeoulError } from '../../core/index.ts';
import type { PendingInterrupt } from '../checkpoint/types.ts';

/** A new run was started on a thread whose run is paused on questions: answer them first. */
export class RunInterruptedError extends YeoulError {
  readonly threadId: string;
  readonly interrupts: PendingInterrupt[];

  constructor(fields: { threadId: string; interrupts: PendingInterrupt[] }) {
    super(
      'run_interrupted',
      `Thread "${fields.threadId}" is waiting for answers to ${fields.interrupts.length} question${fields.interrupts.length === 1 ? '' : 's'} (${fields.interrupts.map((pending) => pending.id).join(', ')}); answer or cancel them first`,
    );
    this.threadId = fields.threadId;
    this.interrupts = fields.interrupts;
  }
}
