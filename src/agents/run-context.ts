import type { NodeContext } from '../graph/index.ts';

/**
 * What a run of an agent graph carries besides its state (given again on every resume,
 * never stored with the checkpoints): whether tokens stream, and who the run serves.
 */
export interface AgentRunContext {
  streamTokens: boolean;
  /** Who the run serves: whose workspace the file tools see. */
  owner?: string;
  /** Whose long-term memory a user graph's nodes reach (`kit.memoryOf(context)`). */
  memoryOwner?: string;
}

/** The run context of a run serving `owner` (none: the whole workspace). */
export function agentRunContext(
  streamTokens: boolean,
  owner: string | undefined,
  memoryOwner?: string,
): AgentRunContext {
  return {
    streamTokens,
    ...(owner === undefined ? {} : { owner }),
    ...(memoryOwner === undefined ? {} : { memoryOwner }),
  };
}

/** Who the run a node belongs to serves, from its run context; undefined when unsaid. */
export function runOwnerOf(context: NodeContext): string | undefined {
  const owner = (context.context as { owner?: unknown } | undefined)?.owner;
  return typeof owner === 'string' ? owner : undefined;
}
