import type { AgentRequest, GraphName } from '../agents/index.ts';
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
