import type { AgentRequest } from '../agents/index.ts';
import { graphNamePattern, sessionIdPattern } from '../core/index.ts';
import { UsageError } from './errors/usage-error.ts';
import { builtinGraphList } from './graph-choices.ts';

/** The options `ask` and `chat` share: which graph, and whether to evaluate the answer. */
export const agentOptions = {
  session: { type: 'string' },
  graph: { type: 'string' },
  evaluate: { type: 'boolean' },
} as const;

/**
 * The request options from `--graph` (a built-in agent or a chat graph of the config file,
 * checked once the config is loaded) and `--evaluate`.
 */
export function requestOptions(
  command: string,
  values: { graph?: string | undefined; evaluate?: boolean | undefined },
): NonNullable<AgentRequest['options']> {
  const graph = values.graph;
  if (graph !== undefined && !graphNamePattern.test(graph)) {
    throw new UsageError({
      problem: `--graph must name a graph (${builtinGraphList()} or one of the config file), not "${graph}"`,
      command,
    });
  }
  return {
    ...(graph ? { graph } : {}),
    ...(values.evaluate ? { evaluate: true } : {}),
  };
}

/** The `--session` value, checked against the one session id rule (a usage error otherwise). */
export function sessionOption(
  command: string,
  value: string | undefined,
  label = '--session',
): string | undefined {
  if (value === undefined) return undefined;
  if (!sessionIdPattern.test(value)) {
    throw new UsageError({
      problem: `${label} must be 1–128 letters, digits and _ . : - (not "${value}")`,
      command,
    });
  }
  return value;
}
