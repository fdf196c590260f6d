import { YeoulError } from '../../core/index.ts';

/** Why a model call failed, in words the server can map to a status and a user message. */
export type ModelFailureReason =
  | 'rate_limited'
  | 'unavailable'
  | 'timeout'
  | 'unreachable'
  | 'network'
  | 'auth'
  | 'bad_request'
  | 'invalid_response';

/** The error codes of model failures, one per cause; a run's error answer names it as `errorCode`. */
export type ModelErrorCode =
  | 'model_auth_failed'
  | 'model_unreachable'
  | 'model_timeout'
  | 'model_rate_limited'
  | 'model_unavailable'
  | 'model_bad_request';

const codeOfReason: Record<ModelFailureReason, ModelErrorCode> = {
  auth: 'model_auth_failed',
  unreachable: 'model_unreachable',
  timeout: 'model_timeout',
  rate_limited: 'model_rate_limited',
  unavailable: 'model_unavailable',
  // A connection that broke after it was made, or answers that never parsed: the model
  // is there but does not serve.
  network: 'model_unavailable',
  invalid_response: 'model_unavailable',
  bad_request: 'model_bad_request',
};

/** A model call failed for good (after its retries, when the failure was transient). */
export class ModelCallError extends YeoulError {
  declare readonly code: ModelErrorCode;
  readonly reason: ModelFailureReason;
  readonly status: number | undefined;
  readonly attempts: number;
  /** The `<provider>:<model id>` that failed, when known. */
  readonly model: string | undefined;

  constructor(fields: {
    reason: ModelFailureReason;
    status?: number;
    attempts: number;
    detail: string;
    model?: string;
    cause?: unknown;
  }) {
    const status = fields.status === undefined ? '' : ` (HTTP ${fields.status})`;
    super(
      codeOfReason[fields.reason],
      `The model call failed after ${fields.attempts} attempt${fields.attempts === 1 ? '' : 's'}: ${fields.reason}${status}: ${fields.detail}`,
      { cause: fields.cause },
    );
    this.reason = fields.reason;
    this.status = fields.status;
    this.attempts = fields.attempts;
    this.model = fields.model;
  }
}
