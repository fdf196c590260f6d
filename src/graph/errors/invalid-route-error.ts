import { YeoulError } from '../../core/index.ts';

/** A conditional edge's router returned a destination it did not declare. */
export class InvalidRouteError extends YeoulError {
  readonly node: string;
  readonly route: string;
  readonly allowed: string[];

  constructor(fields: { node: string; route: unknown; allowed: string[] }) {
    super(
      'graph_invalid_route',
      `The router after "${fields.node}" returned ${JSON.stringify(fields.route)}; declared destinations: ${fields.allowed.join(', ')}`,
    );
    this.node = fields.node;
    this.route = String(fields.route);
    this.allowed = fields.allowed;
  }
}
