import { YeoulError } from '../../core/index.ts';

/**
 * A fork was asked at a step that cannot be forked: not an integer from -1 to the last
 * step, inside a super-step (not its last entry), or folded away by retention.
 * `nearest` lists the closest steps that can be forked.
 */
export class ForkPointError extends YeoulError {
  readonly threadId: string;
  readonly atStep: number;
  readonly nearest: number[];

  constructor(fields: { threadId: string; atStep: number; reason: string; nearest: number[] }) {
    super(
      'invalid_fork_point',
      `Thread "${fields.threadId}" cannot be forked at step ${fields.atStep}: ${fields.reason}${
        fields.nearest.length > 0
          ? `; the nearest steps that can be forked are ${fields.nearest.join(' and ')}`
          : ''
      }`,
    );
    this.threadId = fields.threadId;
    this.atStep = fields.atStep;
    this.nearest = fields.nearest;
  }
}
