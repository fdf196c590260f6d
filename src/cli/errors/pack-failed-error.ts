import { YeoulError } from '../../core/index.ts';

/** `yeoul init` could not pack the clone it runs from into the new project. */
export class PackFailedError extends YeoulError {
  readonly root: string;

  constructor(fields: { root: string; reason: string }) {
    super(
      'pack_failed',
      `could not pack Yeoul from ${fields.root} (npm pack): ${fields.reason}; or name a build with --yeoul SPEC`,
    );
    this.root = fields.root;
  }
}
