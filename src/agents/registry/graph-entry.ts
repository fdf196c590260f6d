import type { CompiledGraph, StateSchema } from '../../graph/index.ts';
import type { RunLimits } from '../agent-payload.ts';
import type { RunGuard } from '../guard/run-guard.ts';
import type { InnerAgent, InnerAgentResult } from '../ops/ops-state.ts';
import type { CallerAdditions } from '../run-context.ts';
import type { AgentOptions, ChatMessage } from '../types.ts';

/** What an inner run of a message starts from: the session's thread and the request's settings. */
export interface InnerRunSetup {
  sessionId: string;
  options: AgentOptions;
  /** Whether model text is streamed as `token` events. */
  streamTokens: boolean;
  /** Earlier turns the caller kept (the stateless `/v1` mode), before the first prompt only. */
  history: ChatMessage[];
  /** The id the prompt's user message is stored with (a client's own); a new one otherwise. */
  messageId?: string;
  /** The request's cap on super-steps and durability for its graph runs. */
  runConfig?: RunLimits;
  /** Who the run serves: whose workspace its file tools see (`runContextOf`). */
  owner?: string;
  /** The run's guardrails (its answers and tool calls go through them). */
  guard?: RunGuard;
  /** The request's run id: every new graph run of the request takes it. */
  runId?: string;
  /** The caller's own tools and instructions, for this request's runs only. */
  additions?: CallerAdditions;
}

/** How a run picked up again goes: its signal, where its events go, whether tokens stream. */
export interface PickedUpRun {
  signal: AbortSignal;
  emit: (name: string, data: unknown) => void;
  streamTokens: boolean;
  /** Who the run serves (the session's owner). */
  owner?: string;
  /** The run's guardrails. */
  guard?: RunGuard;
  /** The run's own cap on super-steps and durability, as it was started with. */
  runConfig?: RunLimits;
}

/**
 * What an entry hands the inner runs of a message: the agent that answers on the session's
 * thread, and whether the evaluation loop wraps every message.
 */
export interface Handoff {
  /** Every message runs inside the evaluation loop (scored, retried), asked or not. */
  readonly evaluate: boolean;
  /** The graph that runs on the session's conversation thread (to read, resume, abandon it). */
  readonly thread: CompiledGraph<StateSchema, unknown>;
  /** The agent on the session's thread; `evaluated`: called by the evaluation loop. */
  agent(setup: InnerRunSetup, evaluated: boolean): InnerAgent;
  /** Runs again the step a dead process left running on the session's thread, to its answer. */
  resume(sessionId: string, run: PickedUpRun): Promise<InnerAgentResult>;
}

/**
 * One graph Yeoul serves: a built-in agent or a graph of the config file. The server, `/v1`,
 * MCP, the CLI and evaluations list and look up graphs only through entries like this.
 */
export interface GraphEntry {
  readonly name: string;
  /** One of the built-in agents (not the config file's). */
  readonly builtin: boolean;
  /** It answers messages (a `messages` channel): served by the agent API, `/v1`, MCP, evals. */
  readonly chat: boolean;
  /** The compiled graph (for `ops`, the evaluation loop). */
  readonly graph: CompiledGraph<StateSchema, unknown>;
  /** What a message run on it hands the inner runs. */
  readonly handoff: Handoff;
}
