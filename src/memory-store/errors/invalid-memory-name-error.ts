import { YeoulError } from '../../core/index.ts';

/** A namespace, key or prefix outside the memory store's rule, with every problem found. */
export class InvalidMemoryNameError extends YeoulError {
  readonly problems: readonly string[];

  constructor(fields: { problems: readonly string[] }) {
    super('invalid_memory_name', fields.problems.join('; '));
    this.problems = fields.problems;
  }
}
