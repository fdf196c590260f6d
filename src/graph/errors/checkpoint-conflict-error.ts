import { YeoulError } from '../../core/index.ts';

/** Another writer committed to the thread first: the entry's seq is taken or out of order. */
export class CheckpointConflictError extends YeoulError {
  readonly threadId: string;
  readonly seq: number;

  constructor(fields: { threadId: string; seq: number; cause?: unknown }) {
    super(
      'checkpoint_conflict',
      `Thread "${fields.threadId}" already has a different history at step ${fields.seq}; another writer got there first`,
      { cause: fields.cause },
    );
    this.threadId = fields.threadId;
    this.seq = fields.seq;
  }
}
