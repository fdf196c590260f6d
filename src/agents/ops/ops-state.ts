import { defineState, replace, type StateOf } from '../../graph/index.ts';
import type { AgentError, AgentUsage } from '../types.ts';
import type { FinalStatus, Verdict } from './decide.ts';
import type { Evaluation } from './evaluation.ts';

/** The self-correcting workflow's state (seed 001 OpsWorkflowState). */
export const opsState = defineState({
  prompt: replace<string>(''),
  response: replace<string>(''),
  toolResults: replace<string[]>([]),
  context: replace<string>(''),
  evaluation: replace<Evaluation | null>(null),
  verdict: replace<Verdict | null>(null),
  feedback: replace<string | null>(null),
  attempt: replace<number>(0),
  maxAttempts: replace<number>(2),
  finalResponse: replace<string>(''),
  finalStatus: replace<FinalStatus>('pending'),
  error: replace<AgentError | null>(null),
  usage: replace<AgentUsage>({ llmCalls: 0, inputTokens: 0, outputTokens: 0 }),
  toolsUsed: replace<string[]>([]),
  /** The inner agent's nodes, in order, across attempts. */
  innerSteps: replace<string[]>([]),
});

export type OpsState = StateOf<typeof opsState>;

/** What the inner agent (chat or react) produced for one attempt. */
export interface InnerAgentResult {
  response: string;
  toolResults: string[];
  context: string;
  usage: AgentUsage;
  toolsUsed: string[];
  steps: string[];
  error: AgentError | null;
}

/** Runs the inner agent on a prompt, forwarding its stream events. */
export type InnerAgent = (
  prompt: string,
  run: { signal: AbortSignal; emit: (name: string, data: unknown) => void },
) => Promise<InnerAgentResult>;
