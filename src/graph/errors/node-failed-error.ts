import { YeoulError } from '../../core/index.ts';

/** A node threw; the error it threw is the `cause`. */
export class NodeFailedError extends YeoulError {
  readonly node: string;

  constructor(fields: { node: string; cause: unknown }) {
    const reason = fields.cause instanceof Error ? fields.cause.message : String(fields.cause);
    super('graph_node_failed', `Node "${fields.node}" failed: ${reason}`, { cause: fields.cause });
    this.node = fields.node;
  }
}
