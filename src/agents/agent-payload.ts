import type { Durability, PendingInterrupt } from '../graph/index.ts';
import type { GuardrailRecord, GuardrailStage } from '../guardrails/index.ts';
import type { ChatMessage, ModelTool } from '../models/index.ts';
import type { ClientToolOutput, ClientToolRequest } from './client-tools.ts';
import type { Evaluation } from './ops/evaluation.ts';
import type { ToolApprovalRequest } from './run-tool-calls.ts';
import type { AgentSource, AgentUsage } from './types.ts';

/** A person's decision on one pending tool call: approve it, or deny it with a reason the model sees. */
export interface ApprovalDecision {
  id: string;
  approve: boolean;
  reason?: string;
}

/** A request's own cap on its graph runs' super-steps and their durability. */
export interface RunLimits {
  maxSteps?: number;
  durability?: Durability;
}

/** Per-request options (the body's `options`). */
export interface AgentRequestOptions {
  temperature?: number;
  maxIterations?: number;
  /** Caps each answer's output tokens (below the model's own cap). */
  maxOutputTokens?: number;
  /** A graph of the registry: a built-in agent or a user chat graph of the config file. */
  graph?: string;
  evaluate?: boolean;
  /** False: the run neither reads nor writes the owner's long-term memory. */
  longTermMemory?: boolean;
}

/**
 * One request to an agent (the body of POST /api/agent/invoke): a new `message`, or
 * `resume.decisions` for the session's paused run.
 */
export interface AgentRequest {
  message?: string;
  /** The id the new user message takes in the session (a client's own id for it); default a new one. */
  messageId?: string;
  /** This request's graph runs' cap on super-steps and durability, over the compiled ones. */
  runConfig?: RunLimits;
  /**
   * Earlier turns of a conversation the caller keeps itself (the stateless `/v1` mode):
   * they open a new thread, before `message`. Ignored with `resume`.
   */
  history?: ChatMessage[];
  sessionId?: string;
  /**
   * Who the run serves (as the caller's credentials say): whose long-term memory it may use
   * and whose workspace the file tools see; unset = no memory and the whole workspace.
   */
  owner?: string;
  /** Decisions on the paused run's approvals, and outputs of its calls of the caller's tools. */
  resume?: { decisions: ApprovalDecision[]; outputs?: ClientToolOutput[] };
  options?: AgentRequestOptions;
  /** Tools the caller brought and runs itself: a call of one pauses the run until its output comes. */
  clientTools?: ModelTool[];
  /** Instructions for this request's runs only: added to the system prompt, never stored. */
  instructions?: string;
  signal?: AbortSignal;
  /**
   * Stream events: `step` {node, phase}, `token`, `tool-call`, `tool-result`, `interrupt`
   * (one per pending call), `error` {code, message} when the run ends in a failure,
   * `evaluation`.
   */
  onEvent?: (name: string, data: unknown) => void;
  /** Whether model text is streamed as `token` events (default: when `onEvent` is given). */
  streamTokens?: boolean;
  /**
   * The run's id (default a new one; decisions: the paused run's): its history steps carry
   * it, and so does the response.
   */
  runId?: string;
}

/**
 * A pending tool call as clients see it: one waiting for a person's approval, or (`client-tool`)
 * a call of a tool the caller brought, waiting for its output.
 */
export interface ApprovalInterrupt {
  id: string;
  type: 'tool-approval' | 'client-tool';
  tool: string;
  args: unknown;
  /** ISO time. */
  createdAt: string;
}

/** What a run ended as (the payload's `status`). */
export type RunOutcome =
  | 'published'
  | 'rejected'
  | 'error'
  | 'interrupted'
  | 'cancelled'
  | 'blocked';

/** The payload every surface answers a run with (`POST /api/agent/invoke`, the stream's `done`). */
export interface AgentResponse {
  response: string;
  sessionId: string;
  /** The run's id, as its history steps carry it. */
  runId: string;
  toolsUsed: string[];
  /** Seconds. */
  executionTime: number;
  status: RunOutcome;
  error?: true;
  errorCode?: string;
  interrupts?: ApprovalInterrupt[];
  sources?: AgentSource[];
  steps: string[];
  usage: AgentUsage;
  /** The `<provider>:<model id>` of the run's last successful model call; absent when none succeeded. */
  model?: string;
  evaluation?: { score: number; verdict: string; checks: Evaluation['checks'] };
  /** What guardrails did during the run, in order; absent when none acted. */
  guardrails?: GuardrailRecord[];
  /** The guardrail that blocked the turn or the answer (`status: "blocked"`). */
  guardrail?: { name: string; stage: GuardrailStage; reason: string };
  /** Why the run was stopped (`status: "cancelled"`), as the server tells it. */
  cancelReason?: RunCancelReason;
}

/**
 * Why a run was stopped: through the API (`rollback`: its steps removed, as a newer message's
 * `onBusy: "rollback"` does), its client leaving, or a newer message.
 */
export type RunCancelReason =
  | { type: 'request'; rollback?: true }
  | { type: 'client_left' }
  | { type: 'superseded'; runId: string; onBusy: 'interrupt' | 'rollback' };

/** A pending interrupt in the contract's shape. */
export function approvalOf(pending: PendingInterrupt): ApprovalInterrupt {
  const request = pending.value as Partial<ToolApprovalRequest | ClientToolRequest>;
  return {
    id: pending.id,
    type: request.type === 'client-tool' ? 'client-tool' : 'tool-approval',
    tool: request.tool ?? 'unknown',
    args: request.args ?? {},
    createdAt: new Date(pending.createdAt).toISOString(),
  };
}

/** Decisions (and outputs of the caller's tools) as graph answers, by interrupt id. */
export function answersOf(
  decisions: ApprovalDecision[],
  outputs: ClientToolOutput[] = [],
): Record<string, unknown> {
  return Object.fromEntries([
    ...decisions.map((decision) => [
      decision.id,
      { approve: decision.approve, ...(decision.reason ? { reason: decision.reason } : {}) },
    ]),
    ...outputs.map((entry) => [entry.id, { output: entry.output }]),
  ]);
}

/** What the user is told when a run was stopped before its answer. */
export function cancelledAnswer(korean: boolean): string {
  return korean ? '요청이 취소되었습니다.' : 'The request was cancelled.';
}

/** What the user is told while a run waits for approvals. */
export function awaitingApprovalAnswer(korean: boolean, interrupts: ApprovalInterrupt[]): string {
  const tools = [...new Set(interrupts.map((pending) => pending.tool))].join(', ');
  return korean
    ? `도구 호출 ${interrupts.length}건(${tools})이 승인을 기다리고 있습니다. 승인하거나 거부하면 이어서 답합니다.`
    : `${interrupts.length} tool call${interrupts.length === 1 ? '' : 's'} (${tools}) await${interrupts.length === 1 ? 's' : ''} approval; approve or deny to continue.`;
}
