import { YeoulError } from '../../core/index.ts';

/** A node returned an update naming fields the state schema does not have. */
export class InvalidUpdateError extends YeoulError {
  readonly node: string;
  readonly fields: string[];

  constructor(fields: { node: string; fields: string[] }) {
    super(
      'graph_invalid_update',
      `Node "${fields.node}" returned unknown state field(s): ${fields.fields.join(', ')}`,
    );
    this.node = fields.node;
    this.fields = fields.fields;
  }
}
