import {
  type AgentRequest,
  type AgentRequestOptions,
  type AgentResponse,
  type AgentSource,
  addUsage,
} from '../agents/index.ts';
import type { EvalItem, EvalToolCall, EvalTurn, ItemOutcome } from './types.ts';

/** What an evaluation runs its items on: the agent runner, as the composition root wires it. */
export interface EvalTarget {
  /** One turn (`runtime.runner.invoke`). */
  invoke(request: AgentRequest): Promise<AgentResponse>;
  /** The reference documents the session's last run was given (its retrieved context). */
  contextOf?(sessionId: string): Promise<string>;
  /** Registers a new session of the item for the run's owner, before its first turn. */
  claimSession?(sessionId: string, firstMessage: string, graph: string): Promise<void>;
}

/** Why an evaluation denies a tool call that needs approval. */
export const deniedReason = 'evaluation runs do not approve tool calls';

/** Rounds of approvals denied in one turn before its paused answer is taken as it is. */
const maxDenials = 5;

/** Options of one item's run. */
export interface RunItemOptions {
  sessionId: string;
  /** The run's graph; an item's own `graph` wins. */
  graph: string;
  signal?: AbortSignal;
}

/**
 * Runs one item on a new session: each message of `input` is a turn (several turns =
 * several runs on that session), with long-term memory off unless the item asks for it.
 * Collects what the scorers read: every tool call with its result (from the run's
 * `tool-call`/`tool-result` events), the sources, the retrieved context, usage and the
 * time the runs took.
 */
export async function runItem(
  item: EvalItem,
  target: EvalTarget,
  options: RunItemOptions,
): Promise<ItemOutcome> {
  const { sessionId } = options;
  await target.claimSession?.(sessionId, item.input[0] ?? '', item.graph ?? options.graph);
  const toolCalls: EvalToolCall[] = [];
  const open = new Map<string, EvalToolCall>();
  const onEvent = (name: string, data: unknown) => {
    const event = data as {
      id?: string;
      name?: string;
      args?: unknown;
      result?: unknown;
      error?: boolean;
    };
    if (name === 'tool-call') {
      const call: EvalToolCall = {
        name: event.name ?? '',
        args: event.args ?? {},
        result: '',
        error: false,
      };
      toolCalls.push(call);
      if (event.id) open.set(event.id, call);
    } else if (name === 'tool-result') {
      const call = event.id ? open.get(event.id) : undefined;
      if (!call) return;
      call.result = typeof event.result === 'string' ? event.result : JSON.stringify(event.result);
      call.error = event.error === true;
    }
  };
  // `longTermMemory` is passed through to the runner (eval runs neither read nor write it);
  // `graph` may name a user chat graph, which the runner resolves.
  const requestOptions = {
    graph: item.graph ?? options.graph,
    longTermMemory: item.longTermMemory === true,
  } as AgentRequestOptions;
  const turns: EvalTurn[] = [];
  const sources = new Map<string, AgentSource>();
  const contexts: string[] = [];
  let usage = { llmCalls: 0, inputTokens: 0, outputTokens: 0 };
  let latencyMs = 0;
  for (const message of item.input) {
    const started = performance.now();
    const common = {
      sessionId,
      onEvent,
      streamTokens: false,
      ...(options.signal ? { signal: options.signal } : {}),
    };
    let payload = await target.invoke({ ...common, message, options: requestOptions });
    // Nobody approves tool calls during an evaluation: pending ones are denied, and the run
    // goes on to its answer (the denied calls stay in the trajectory).
    for (let round = 0; payload.status === 'interrupted' && round < maxDenials; round += 1) {
      const decisions = (payload.interrupts ?? []).map((pending) => ({
        id: pending.id,
        approve: false,
        reason: deniedReason,
      }));
      payload = await target.invoke({ ...common, resume: { decisions } });
    }
    latencyMs += performance.now() - started;
    turns.push({
      input: message,
      response: payload.response,
      status: payload.status,
      ...(payload.errorCode ? { errorCode: payload.errorCode } : {}),
      ...(payload.guardrails?.length ? { guardrails: payload.guardrails } : {}),
      ...(payload.guardrail ? { guardrail: payload.guardrail } : {}),
    });
    for (const source of payload.sources ?? []) {
      sources.set(`${source.documentId}\u0000${source.chunkId}`, source);
    }
    usage = addUsage(usage, payload.usage, payload.usage.llmCalls);
    const context = (await target.contextOf?.(sessionId)) ?? '';
    if (context.trim() !== '') contexts.push(context);
  }
  return {
    item,
    sessionId,
    turns,
    response: turns.at(-1)?.response ?? '',
    toolCalls,
    sources: [...sources.values()],
    context: contexts.join('\n\n'),
    usage,
    latencyMs,
  };
}
