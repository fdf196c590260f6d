import { YeoulError } from '../../core/index.ts';

/** `--token` named a token the server would refuse, or one without the scope the command needs. */
export class TokenRefusedError extends YeoulError {
  /** Why, as the server would say it (expired, bad signature, … or the scope it lacks). */
  readonly reason: string;

  constructor(fields: { reason: string }) {
    super('token_refused', `--token was refused: ${fields.reason}`);
    this.reason = fields.reason;
  }
}
