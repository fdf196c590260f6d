const sendTag = Symbol.for('yeoul.graph.send');

/** One task a router fans out: `node` runs with `input` alone as its state argument. */
export interface Send {
  readonly [sendTag]: true;
  readonly node: string;
  readonly input: Record<string, unknown>;
}

/**
 * Fans out from a router: each `send` becomes one task of the next super-step, running
 * `node` with its own `input` (plain JSON data) as the state it sees; the tasks' updates
 * reduce into the graph's state. LangGraph's `Send`.
 * @example
 * .addConditionalEdges('split', (state) => state.chunks.map((chunk) => send('summarise', { chunk })), ['summarise'])
 */
export function send(node: string, input: Record<string, unknown>): Send {
  return { [sendTag]: true, node, input };
}

/** Whether a router's result is a `send`. */
export function isSend(value: unknown): value is Send {
  return typeof value === 'object' && value !== null && sendTag in value;
}
