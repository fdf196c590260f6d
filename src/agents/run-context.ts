import type { NodeContext } from '../graph/index.ts';
import type { ModelTool } from '../models/index.ts';
import type { RunGuard } from './guard/run-guard.ts';

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
  /** The run's guardrails: its model answers and tool calls go through them. */
  guard?: RunGuard;
  /** Tools the caller brought and runs itself: the model may call them; the run then waits. */
  clientTools?: ModelTool[];
  /** The caller's instructions for this run only: added to each model call's system prompt. */
  instructions?: string;
}

/** What a caller adds to one run only: its own tools and instructions. */
export type CallerAdditions = Pick<AgentRunContext, 'clientTools' | 'instructions'>;

/** The run context of a run serving `owner` (none: the whole workspace). */
export function agentRunContext(
  streamTokens: boolean,
  owner: string | undefined,
  memoryOwner?: string,
  guard?: RunGuard,
  additions: CallerAdditions = {},
): AgentRunContext {
  const { clientTools, instructions } = additions;
  return {
    streamTokens,
    ...(clientTools === undefined || clientTools.length === 0 ? {} : { clientTools }),
    ...(instructions === undefined || instructions === '' ? {} : { instructions }),
    ...(owner === undefined ? {} : { owner }),
    ...(memoryOwner === undefined ? {} : { memoryOwner }),
    ...(guard === undefined || guard.empty ? {} : { guard }),
  };
}

/** The guardrails of the run a node belongs to; undefined when it has none. */
export function runGuardOf(context: NodeContext): RunGuard | undefined {
  return (context.context as { guard?: RunGuard } | undefined)?.guard;
}

/** Who the run a node belongs to serves, from its run context; undefined when unsaid. */
export function runOwnerOf(context: NodeContext): string | undefined {
  const owner = (context.context as { owner?: unknown } | undefined)?.owner;
  return typeof owner === 'string' ? owner : undefined;
}

/** The caller's instructions for the run a node belongs to; undefined when none. */
export function runInstructionsOf(context: NodeContext): string | undefined {
  const instructions = (context.context as { instructions?: unknown } | undefined)?.instructions;
  return typeof instructions === 'string' ? instructions : undefined;
}
