import { YeoulError } from '../../core/index.ts';

/** `yeoul init` was pointed at a folder that already holds files (or at a file). */
export class TargetNotEmptyError extends YeoulError {
  readonly path: string;

  constructor(fields: { path: string; reason: string }) {
    super(
      'target_not_empty',
      `cannot create a project in ${fields.path}: ${fields.reason}; name a new or empty folder`,
    );
    this.path = fields.path;
  }
}
