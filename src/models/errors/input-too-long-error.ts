import { YeoulError } from '../../core/index.ts';

/** The current message alone (with the system prompt) does not fit the input token budget. */
export class InputTooLongError extends YeoulError {
  readonly tokenCount: number;
  readonly limit: number;

  constructor(fields: { tokenCount: number; limit: number }) {
    super(
      'input_too_long',
      `The message is ${fields.tokenCount} tokens long; at most ${fields.limit} fit in one model call (YEOUL_MAX_INPUT_TOKENS)`,
    );
    this.tokenCount = fields.tokenCount;
    this.limit = fields.limit;
  }
}
