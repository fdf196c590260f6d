import { YeoulError } from '../../core/index.ts';

/** A memory value larger, as JSON, than the store takes. */
export class MemoryValueTooLargeError extends YeoulError {
  readonly bytes: number;
  readonly limit: number;

  constructor(fields: { bytes: number; limit: number }) {
    super(
      'memory_value_too_large',
      `the value is ${fields.bytes} bytes as JSON; at most ${fields.limit} bytes fit`,
    );
    this.bytes = fields.bytes;
    this.limit = fields.limit;
  }
}
