import { YeoulError } from '../../core/index.ts';

/**
 * A node's update cannot be applied: it names fields the state schema does not have
 * (`graph_invalid_update`), or tasks of one super-step wrote the same `replace` channel,
 * which keeps one value only (`concurrent_update`).
 */
export class InvalidUpdateError extends YeoulError {
  /** The node whose update was refused (the first of them, for a concurrent update). */
  readonly node: string;
  readonly fields: string[];
  /** The nodes that wrote `fields[0]` in one super-step (concurrent updates only). */
  readonly nodes: string[];

  constructor(fields: { node: string; fields: string[] } | { channel: string; nodes: string[] }) {
    if ('channel' in fields) {
      super(
        'concurrent_update',
        `Nodes ${fields.nodes.map((node) => `"${node}"`).join(', ')} wrote the replace channel "${fields.channel}" in one super-step; it can take one value per super-step (use a reducer such as append to combine them)`,
      );
      this.node = fields.nodes[0] ?? '';
      this.fields = [fields.channel];
      this.nodes = fields.nodes;
      return;
    }
    super(
      'graph_invalid_update',
      `Node "${fields.node}" returned unknown state field(s): ${fields.fields.join(', ')}`,
    );
    this.node = fields.node;
    this.fields = fields.fields;
    this.nodes = [fields.node];
  }
}
