import type { MemoryStore } from '../memory-store/index.ts';
import type { ChatMessage, ChatModel } from '../models/index.ts';
import type { KnowledgePassage, ToolEnvironment, ToolRegistry } from '../tools/index.ts';
import type { MemorySettings } from './memory/memory-settings.ts';

/** What the agent graphs need, wired once by the composition root. */
export interface AgentDependencies {
  model: ChatModel;
  tools: ToolRegistry;
  toolEnvironment: ToolEnvironment;
  /** The knowledge base; without one the chat agent never routes to rag. */
  knowledge?: { search(query: string, options?: { k?: number }): Promise<KnowledgePassage[]> };
  memory?: Partial<MemorySettings>;
  /**
   * The long-term memory store: runs with an owner (`AgentOptions.memoryOwner`) keep what
   * users state about themselves in their `profile` and read it back. Unset = off.
   */
  longTermMemory?: MemoryStore;
  /** The system prompt's first paragraph (default: "a helpful AI assistant", in Korean). */
  persona?: string;
  /**
   * `heuristic` (default): the router decides clear cases without the LLM.
   * `llm`: it asks the LLM every turn, as the original design did (for comparisons).
   */
  routerMode?: 'heuristic' | 'llm';
}

/** Per-request options. */
export interface AgentOptions {
  temperature?: number;
  /** LLM ⇄ tool iterations before "request too complex" (default 5). */
  maxIterations: number;
  /** Caps each answer's output tokens (OpenAI's `max_tokens`); the model's own cap otherwise. */
  maxOutputTokens?: number;
  /** The owner whose long-term memory the run reads and writes; unset = none. */
  memoryOwner?: string;
  /** The id the run's new user message takes (the caller's own id for it); default a new one. */
  messageId?: string;
}

/** LLM calls and tokens of one run. */
export interface AgentUsage {
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
}

/** A document a rag answer drew on, for citations. */
export interface AgentSource {
  documentId: string;
  chunkId: string;
  title: string;
}

/** An error a run ended with, as a value (the payload's `errorCode`). */
export interface AgentError {
  code: string;
  message: string;
}

export type { ChatMessage };
