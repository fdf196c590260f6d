import type { CompiledGraph, StateSchema } from '../../graph/index.ts';
import {
  type GuardrailRecord,
  type GuardrailSuite,
  PlaceholderVault,
  refusalOf,
  type VaultEntry,
} from '../../guardrails/index.ts';
import type { ChatMessage } from '../../models/index.ts';
import type { Payload } from '../runner/run-payload.ts';
import { type GuardrailObserver, RunGuard } from './run-guard.ts';

/** Where each session's vault of restorable values is kept (the state store). */
export interface VaultStore {
  load(sessionId: string): Promise<VaultEntry[]>;
  add(sessionId: string, entries: VaultEntry[]): Promise<void>;
}

/** What the runner guards runs with: the guardrails of each chat graph, the vaults, the observer. */
export interface GuardSettings {
  suite: GuardrailSuite;
  vaults: VaultStore;
  observe?: GuardrailObserver;
}

/** The guard of one run on `graph`; undefined when that graph has no guardrails. */
export async function openRunGuard(
  settings: GuardSettings | undefined,
  graph: string,
  run: { sessionId: string; signal: AbortSignal; emit: (name: string, data: unknown) => void },
): Promise<RunGuard | undefined> {
  if (settings === undefined) return undefined;
  const guardrails = settings.suite.forGraph(graph);
  if (guardrails.empty) return undefined;
  // A vault that cannot be read is no reason to number values anew: the run fails instead.
  const vault = new PlaceholderVault(await settings.vaults.load(run.sessionId));
  return new RunGuard({
    guardrails,
    vault,
    graph,
    ...run,
    observe: settings.observe,
    persist: (sessionId, entries) => settings.vaults.add(sessionId, entries),
  });
}

/** A turn's message (and the earlier turns a stateless caller sent) after the input stage. */
export type GuardedInput =
  | { blocked: false; message: string; history: ChatMessage[] }
  | { blocked: true; record: GuardrailRecord; message: string };

/**
 * Runs the input stage on the user's message and on every user message of `history`
 * (a stateless caller's earlier turns): the texts to use, or the block with the message as
 * it may be stored (what a detector matched replaced by its placeholder).
 */
export async function guardInput(
  guard: RunGuard,
  message: string,
  history: ChatMessage[],
): Promise<GuardedInput> {
  const checkedHistory: ChatMessage[] = [];
  for (const turn of history) {
    if (turn.role !== 'user') {
      checkedHistory.push(turn);
      continue;
    }
    const checked = await guard.input(turn.content);
    if (checked.blocked) return { blocked: true, record: checked.blocked, message: checked.text };
    checkedHistory.push({ ...turn, content: checked.text });
  }
  const checked = await guard.input(message);
  if (checked.blocked) return { blocked: true, record: checked.blocked, message: checked.text };
  return { blocked: false, message: checked.text, history: checkedHistory };
}

/**
 * Stores a blocked turn as a run of the session that runs no node: the user's message (as
 * it may be stored) and the refusal, both marked `blocked`, and the `guardrail` step
 * listing what acted. Returns the turn's payload: the refusal, no model call.
 */
export async function recordBlockedTurn(
  thread: CompiledGraph<StateSchema, unknown>,
  guard: RunGuard,
  turn: {
    sessionId: string;
    signal: AbortSignal;
    message: string;
    record: GuardrailRecord;
    runId?: string;
    /** The id the blocked message is stored with (a client's own). */
    messageId?: string;
  },
  korean: boolean,
): Promise<Payload> {
  const refusal = refusalOf(turn.record, korean);
  const user: ChatMessage = {
    ...(turn.messageId === undefined ? {} : { id: turn.messageId }),
    role: 'user',
    content: turn.message,
    blocked: true,
  };
  const answer: ChatMessage = { role: 'assistant', content: refusal, blocked: true };
  await thread.run({ messages: [user] } as never, {
    threadId: turn.sessionId,
    signal: turn.signal,
    recordOnly: true,
    onPendingRun: 'abandon',
    ...(turn.runId === undefined ? {} : { runId: turn.runId }),
    closingStep: () => guard.closingStep({ messages: [answer] }),
  });
  return {
    response: refusal,
    toolsUsed: [],
    status: 'blocked',
    steps: [],
    usage: { llmCalls: 0, inputTokens: 0, outputTokens: 0 },
    ...guardFields(guard),
  };
}

/** What a run's payload says of its guardrails: what acted, and the block that ended it. */
export function guardFields(guard: RunGuard | undefined): Partial<Payload> {
  if (guard === undefined || guard.records.length === 0) return {};
  const blocked = guard.blocked;
  return {
    guardrails: [...guard.records],
    ...(blocked === undefined
      ? {}
      : {
          status: 'blocked' as const,
          guardrail: { name: blocked.name, stage: blocked.stage, reason: blocked.reason },
        }),
  };
}
