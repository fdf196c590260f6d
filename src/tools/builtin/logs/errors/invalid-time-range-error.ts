import { YeoulError } from '../../../../core/index.ts';

/** A query's time range is empty or reversed (`since` at or after `until`, `start` after `end`). */
export class InvalidTimeRangeError extends YeoulError {
  readonly from: string;
  readonly to: string;

  constructor(fields: { fromName: string; from: Date; toName: string; to: Date }) {
    const from = fields.from.toISOString();
    const to = fields.to.toISOString();
    super(
      'invalid_time_range',
      `${fields.fromName} (${from}) must be before ${fields.toName} (${to}); ` +
        'durations such as 1h mean that long ago',
    );
    this.from = from;
    this.to = to;
  }
}
