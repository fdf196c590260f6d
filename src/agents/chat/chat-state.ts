import { defineState, messages, replace, type StateOf } from '../../graph/index.ts';
import type { KnowledgePassage } from '../../tools/index.ts';
import type { AgentError, AgentOptions, AgentSource, AgentUsage, ChatMessage } from '../types.ts';

/** Usage of a run that has not called a model yet. */
export const zeroUsage: AgentUsage = { llmCalls: 0, inputTokens: 0, outputTokens: 0 };

/**
 * The chat agent's state: the conversation, its memory, and what the payload reports. Fields
 * from `route` down belong to one run: every run's input resets them.
 */
export const chatState = defineState({
  messages: messages<ChatMessage>(),
  /** Which agent graph ran the thread's last run (the react graph shares threads). */
  agent: replace<'chat' | 'react'>('chat'),
  /** The sliding window of conversation summaries (the most recent `maxSummaries`). */
  summary: replace<string>(''),
  route: replace<'rag' | 'agent' | null>(null),
  routeReason: replace<string>(''),
  /** Passages the router already found, for the rag node. */
  passages: replace<KnowledgePassage[]>([]),
  /** The owner's long-term profile block of the system prompt (the memory node reads it). */
  profile: replace<string>(''),
  /** The reference documents block of the system prompt. */
  context: replace<string>(''),
  sources: replace<AgentSource[]>([]),
  iterations: replace<number>(0),
  toolCalls: replace<number>(0),
  toolsUsed: replace<string[]>([]),
  usage: replace<AgentUsage>(zeroUsage),
  options: replace<AgentOptions>({ maxIterations: 5 }),
  error: replace<AgentError | null>(null),
});

export type ChatState = StateOf<typeof chatState>;

/**
 * The input of one chat run: the user's message (after `history`, the earlier turns of a
 * conversation the caller kept; stored under `messageId` when given), the options, and the
 * per-run fields reset.
 */
export function chatRunInput(message: string, options: AgentOptions, history: ChatMessage[] = []) {
  const user = {
    ...(options.messageId === undefined ? {} : { id: options.messageId }),
    role: 'user' as const,
    content: message,
  };
  return {
    messages: history.length > 0 ? [...history, user] : user,
    agent: 'chat' as const,
    route: null,
    routeReason: '',
    passages: [],
    context: '',
    sources: [],
    iterations: 0,
    toolCalls: 0,
    toolsUsed: [],
    usage: zeroUsage,
    options,
    error: null,
  };
}
