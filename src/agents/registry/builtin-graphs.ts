/**
 * The built-in agents, in the order listings show them (the default first): `chat` (router →
 * rag → memory → agent ⇄ tools), `react` (one agent loop) and `ops` (the default agent inside
 * the self-correcting evaluation loop). The names are spelled here and nowhere else: every
 * other part of Yeoul reads them from here or from the graph registry.
 */
export const builtinGraphNames = ['chat', 'react', 'ops'] as const;

/** A built-in agent's name. */
export type BuiltinGraphName = (typeof builtinGraphNames)[number];

/** The graph a request runs on when it names none. */
export const defaultGraphName = 'chat' satisfies BuiltinGraphName;

/** The built-in that runs every message on the default agent inside the evaluation loop. */
export const evaluationGraphName = 'ops' satisfies BuiltinGraphName;

/** Whether a graph name is one of the built-in agents'. */
export function isBuiltinGraph(name: string): name is BuiltinGraphName {
  return (builtinGraphNames as readonly string[]).includes(name);
}

/**
 * The graph a request runs on, by name (for metrics and listings): the one it names, else the
 * evaluation loop's when it asks for evaluation, else the default.
 */
export function graphNameOf(options: { graph?: string; evaluate?: boolean } = {}): string {
  return options.graph ?? (options.evaluate ? evaluationGraphName : defaultGraphName);
}
