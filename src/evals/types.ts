import type { AgentSource, AgentUsage } from '../agents/index.ts';
import type { ChatModel } from '../models/index.ts';

/** One item of a dataset (a JSONL line or a CSV row), validated. */
export interface EvalItem {
  id: string;
  /** The user's messages, one per turn, all on one new session. */
  input: string[];
  /** What the last answer should say. */
  expected?: string;
  /** Tool names that must be called, in this order, among all the calls of the item's turns. */
  expectedTools?: string[];
  /** Document ids the answers must cite. */
  expectedSources?: string[];
  /**
   * `NAME`: a turn is blocked by that guardrail; `NAME:ACTION`: that guardrail took that
   * action on a turn; `none`: no turn is blocked.
   */
  expectedGuardrail?: string;
  /** The chat graph the item runs on (default: the run's graph). */
  graph?: string;
  tags?: string[];
  /** `latency` fails above this many milliseconds. */
  maxLatencyMs?: number;
  /** `tokens` fails above this many tokens (input + output). */
  maxTokens?: number;
  /** Let the item's runs read and write long-term memory (off by default, so runs repeat). */
  longTermMemory?: boolean;
  /** Anything else a user scorer reads. */
  metadata?: Record<string, unknown>;
}

/** A tool call an item's runs made, with what it returned. */
export interface EvalToolCall {
  name: string;
  args: unknown;
  result: string;
  error: boolean;
}

/** One turn of an item: the message, the answer and how the run ended. */
export interface EvalTurn {
  input: string;
  response: string;
  status: string;
  errorCode?: string;
  /** What guardrails did in the turn, in order (none: absent). */
  guardrails?: Array<{ name: string; stage: string; action: string; reason: string }>;
  /** The guardrail that blocked the turn. */
  guardrail?: { name: string; stage: string; reason: string };
}

/** What an item's runs produced: what every scorer reads. */
export interface ItemOutcome {
  item: EvalItem;
  sessionId: string;
  turns: EvalTurn[];
  /** The last answer. */
  response: string;
  /** Every tool call of every turn, in order, with its result. */
  toolCalls: EvalToolCall[];
  /** The documents the answers cited. */
  sources: AgentSource[];
  /** The reference documents the agent was given (retrieved context), joined. */
  context: string;
  usage: AgentUsage;
  latencyMs: number;
}

/** A scorer's verdict on one item. */
export interface ScoreResult {
  score: number;
  passed: boolean;
  reason: string;
}

/** A score as stored: the scorer's name and its verdict. */
export interface ItemScore extends ScoreResult {
  scorer: string;
}

/** What a scorer is given besides the outcome: the judge model, when one is set. */
export interface ScorerTools {
  /** Grades an answer (the `judge` scorer's model). */
  judge?: ChatModel;
  signal?: AbortSignal;
}

/** A scorer: a name and a function from an item's outcome to a score. */
export interface Scorer {
  name: string;
  /** Whether it runs on an item when `--scorers` names none (built-ins only). */
  appliesByDefault?: (item: EvalItem) => boolean;
  score(outcome: ItemOutcome, tools: ScorerTools): ScoreResult | Promise<ScoreResult>;
}

/** One scored item of a run. */
export interface EvalRunItem {
  id: string;
  input: string[];
  response: string;
  sessionId: string;
  passed: boolean;
  scores: ItemScore[];
  latencyMs: number;
  usage: AgentUsage;
  tags?: string[];
}

/** A run's totals. */
export interface EvalSummary {
  items: number;
  passed: number;
  failed: number;
  meanScore: number;
  byScorer: Record<string, number>;
}

/** A stored evaluation run. */
export interface EvalRun {
  id: string;
  name: string;
  graph: string;
  createdAt: string;
  status: 'running' | 'done' | 'failed';
  summary: EvalSummary;
  items: EvalRunItem[];
  /** Why a failed run stopped. */
  error?: string;
}

/** A run in listings (no items). */
export type EvalRunSummary = Omit<EvalRun, 'items'>;
