import {
  append,
  defineState,
  increment,
  messages,
  replace,
  type StateOf,
} from '../../graph/index.ts';
import type { ToolCall } from '../../models/index.ts';
import type { AgentError, AgentOptions, AgentUsage, ChatMessage } from '../types.ts';

/** One tool execution's outcome: the call's id, the tool, the result text, whether it failed. */
export interface ToolExecutionResult {
  id: string;
  name: string;
  content: string;
  isError: boolean;
}

/**
 * The single agent's state, with these reducers: messages append,
 * toolExecutionRequests replace, toolExecutionResults append, currentStep replace,
 * iterationCount increment.
 */
export const reactState = defineState({
  messages: messages<ChatMessage>(),
  /** Which agent graph ran the thread's last run (the chat graph shares threads). */
  agent: replace<'chat' | 'react'>('react'),
  userMessage: replace<string>(''),
  /** The id the run's user message is stored with (a client's own); '' for a new one. */
  userMessageId: replace<string>(''),
  toolExecutionRequests: replace<ToolCall[]>([]),
  toolExecutionResults: append<ToolExecutionResult>(),
  currentStep: replace<'input' | 'llm' | 'tool' | 'response' | 'error'>('input'),
  iterationCount: increment(),
  error: replace<AgentError | null>(null),
  usage: replace<AgentUsage>({ llmCalls: 0, inputTokens: 0, outputTokens: 0 }),
  toolsUsed: replace<string[]>([]),
  options: replace<AgentOptions>({ maxIterations: 5 }),
  response: replace<string>(''),
});

export type ReactState = StateOf<typeof reactState>;
