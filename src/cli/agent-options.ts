import type { AgentRequest, GraphName } from '../agents/index.ts';
import { sessionIdPattern } from '../core/index.ts';
import { UsageError } from './errors/usage-error.ts';
import { choiceOption } from './parse-command-args.ts';

/** The options `ask` and `chat` share: which graph, and whether to evaluate the answer. */
export const agentOptions = {
  session: { type: 'string' },
  graph: { type: 'string' },
  evaluate: { type: 'boolean' },
} as const;

const graphNames = ['chat', 'react', 'ops'] as const satisfies readonly GraphName[];

/** The request options from `--graph` and `--evaluate`. */
export function requestOptions(
  command: string,
  values: { graph?: string | undefined; evaluate?: boolean | undefined },
): NonNullable<AgentRequest['options']> {
  const graph = choiceOption(command, '--graph', values.graph, graphNames);
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
