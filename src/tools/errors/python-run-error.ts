import { YeoulError } from '../../core/index.ts';

/** Why a python_repl call failed: the code raised, ran too long, was cancelled, or Python died. */
export type PythonRunFailure = 'exception' | 'timeout' | 'cancelled' | 'crashed';

/** A python_repl call did not finish normally; the message is what the model reads. */
export class PythonRunError extends YeoulError {
  readonly failure: PythonRunFailure;
  /** The Python exception type (`ZeroDivisionError`) when `failure` is `exception`. */
  readonly pythonType: string | undefined;

  constructor(fields: { failure: PythonRunFailure; detail: string; pythonType?: string }) {
    super(`python_${fields.failure}`, fields.detail);
    this.failure = fields.failure;
    this.pythonType = fields.pythonType;
  }
}
