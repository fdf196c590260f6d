import { defineState, type PendingInterrupt, replace, type StateOf } from '../../graph/index.ts';
import type { AgentError, AgentSource, AgentUsage } from '../types.ts';
import type { FinalStatus, Verdict } from './decide.ts';
import type { Evaluation } from './evaluation.ts';

/** The self-correcting ops workflow's state: the attempt's answer, its evaluation and verdict. */
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
  sources: replace<AgentSource[]>([]),
  /** The inner agent's nodes, in order, across attempts. */
  innerSteps: replace<string[]>([]),
});

export type OpsState = StateOf<typeof opsState>;

/** What the inner agent (chat or react) produced for one attempt, or that it paused. */
export interface InnerAgentResult {
  status: 'done' | 'interrupted';
  /** The questions the paused inner run waits on (status `interrupted`). */
  interrupts: PendingInterrupt[];
  /** The user's message this run answers (its language is the answer's). */
  question: string;
  response: string;
  toolResults: string[];
  context: string;
  sources: AgentSource[];
  /** The whole inner run's usage (a resumed run includes what it used before its pause). */
  usage: AgentUsage;
  toolsUsed: string[];
  /** The nodes this call ran (a resumed run: those after the pause). */
  steps: string[];
  error: AgentError | null;
}

/** What the inner agent runs: a new attempt on a prompt, or its paused run with answers. */
export type InnerAgentInput = { prompt: string } | { answers: Record<string, unknown> };

/** Runs the inner agent, forwarding its stream events. */
export type InnerAgent = (
  input: InnerAgentInput,
  run: { signal: AbortSignal; emit: (name: string, data: unknown) => void },
) => Promise<InnerAgentResult>;
