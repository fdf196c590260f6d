import type { AgentResponse, GraphEntry } from '../../agents/index.ts';
import type { StateSchema, ThreadState } from '../../graph/index.ts';
import type { RunRecord } from '../runs/run-store.ts';
import { type LangGraphInterrupt, toLangGraphValues } from './langgraph-messages.ts';
import { checkpointMetadataOf, type StepFacts } from './langgraph-step-events.ts';

/** When the graphs were loaded: assistants' `created_at` and `updated_at`. */
const loadedAt = new Date().toISOString();

/** A graph as a LangGraph assistant: one per graph, named as it. */
export function assistantOf(entry: GraphEntry): Record<string, unknown> {
  return {
    assistant_id: entry.name,
    graph_id: entry.name,
    name: entry.name,
    description: null,
    version: 1,
    config: {},
    context: {},
    metadata: { created_by: 'system' },
    created_at: loadedAt,
    updated_at: loadedAt,
  };
}

/** A run's LangGraph status: ended (also paused) `success`, `error`, or `interrupted` when cancelled. */
export function runStatusOf(run: RunRecord): string {
  switch (run.status) {
    case 'queued':
      return 'pending';
    case 'running':
      return 'running';
    case 'cancelled':
      return 'interrupted';
    case 'failed':
      return 'error';
    default:
      return (run.result as AgentResponse | undefined)?.error ? 'error' : 'success';
  }
}

/** A run record as LangGraph's Run. */
export function runOf(run: RunRecord, multitaskStrategy = 'reject'): Record<string, unknown> {
  const guardrail = (run.result as AgentResponse | undefined)?.guardrail;
  return {
    run_id: run.runId,
    thread_id: run.sessionId,
    assistant_id: run.graph,
    status: runStatusOf(run),
    created_at: run.createdAt,
    updated_at: run.endedAt ?? run.startedAt ?? run.createdAt,
    metadata: { ...run.metadata, ...(guardrail === undefined ? {} : { guardrail }) },
    kwargs: {},
    multitask_strategy: multitaskStrategy,
  };
}

/** A thread's LangGraph status from its state and whether a run goes on it. */
export function threadStatusOf(
  state: ThreadState<StateSchema> | undefined,
  busy: boolean,
): 'idle' | 'busy' | 'interrupted' | 'error' {
  if (busy || state?.status === 'running') return 'busy';
  if (state?.status === 'interrupted') return 'interrupted';
  if (state?.status === 'failed' || state?.status === 'error') return 'error';
  return 'idle';
}

/** What a thread view is built from. */
export interface ThreadFacts {
  threadId: string;
  createdAt: number;
  state: ThreadState<StateSchema> | undefined;
  busy: boolean;
  pending: readonly LangGraphInterrupt[];
  /** The graph its last run chose, when one did. */
  graph: string | undefined;
  /** The metadata it was given. */
  metadata: Record<string, string>;
}

/** A session as LangGraph's Thread. */
export function threadOf(facts: ThreadFacts): Record<string, unknown> {
  const { state, pending } = facts;
  const updatedAt = new Date(state?.updatedAt ?? facts.createdAt).toISOString();
  return {
    thread_id: facts.threadId,
    created_at: new Date(facts.createdAt).toISOString(),
    updated_at: updatedAt,
    state_updated_at: updatedAt,
    metadata: {
      ...facts.metadata,
      ...(facts.graph === undefined ? {} : { graph_id: facts.graph, assistant_id: facts.graph }),
    },
    status: threadStatusOf(state, facts.busy),
    values: toLangGraphValues(state?.values ?? {}),
    interrupts: Object.fromEntries(pending.map((interrupt) => [interrupt.id, [interrupt]])),
  };
}

/** One fork point of a thread as LangGraph's ThreadState. */
export function stateAt(
  threadId: string,
  point: StepFacts & { values: unknown; next: string | null; createdAt: number },
  parentStep: number | undefined,
  pending: readonly LangGraphInterrupt[],
): Record<string, unknown> {
  const checkpoint = (step: number) => ({
    thread_id: threadId,
    checkpoint_ns: '',
    checkpoint_id: String(step),
  });
  const interrupts = [...pending];
  return {
    values: toLangGraphValues(point.values),
    next: point.next === null ? [] : [point.next],
    tasks:
      interrupts.length > 0 && point.next !== null
        ? [{ id: point.runId, name: point.next, interrupts, error: null }]
        : [],
    checkpoint: checkpoint(point.step),
    parent_checkpoint: parentStep === undefined ? null : checkpoint(parentStep),
    metadata: checkpointMetadataOf(point),
    created_at: new Date(point.createdAt).toISOString(),
  };
}
