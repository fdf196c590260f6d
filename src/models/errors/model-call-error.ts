import { YeoulError } from '../../core/index.ts';

/** Why a model call failed, in words the server can map to a status and a user message. */
export type ModelFailureReason =
  | 'rate_limited'
  | 'unavailable'
  | 'timeout'
  | 'network'
  | 'auth'
  | 'bad_request'
  | 'invalid_response';

/** A model call failed for good (after its retries, when the failure was transient). */
export class ModelCallError extends YeoulError {
  readonly reason: ModelFailureReason;
  readonly status: number | undefined;
  readonly attempts: number;

  constructor(fields: {
    reason: ModelFailureReason;
    status?: number;
    attempts: number;
    detail: string;
    cause?: unknown;
  }) {
    const status = fields.status === undefined ? '' : ` (HTTP ${fields.status})`;
    super(
      'model_call_failed',
      `The model call failed after ${fields.attempts} attempt${fields.attempts === 1 ? '' : 's'}: ${fields.reason}${status}: ${fields.detail}`,
      { cause: fields.cause },
    );
    this.reason = fields.reason;
    this.status = fields.status;
    this.attempts = fields.attempts;
  }
}
