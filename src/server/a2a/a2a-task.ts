import type { AgentResponse } from '../../agents/index.ts';
import type { RunRecord, RunStatus } from '../runs/run-store.ts';

/** A task's state as A2A 1.0 names it. */
export type TaskState =
  | 'TASK_STATE_SUBMITTED'
  | 'TASK_STATE_WORKING'
  | 'TASK_STATE_COMPLETED'
  | 'TASK_STATE_FAILED'
  | 'TASK_STATE_CANCELED'
  | 'TASK_STATE_INPUT_REQUIRED'
  | 'TASK_STATE_REJECTED';

/** A part of a message or artifact: text, or data. */
export type A2aPart = { text: string } | { data: unknown };

/** A message as A2A 1.0 sends it. */
export interface A2aMessage {
  messageId: string;
  contextId: string;
  taskId: string;
  role: 'ROLE_USER' | 'ROLE_AGENT';
  parts: A2aPart[];
}

/** A task's status. */
export interface A2aStatus {
  state: TaskState;
  timestamp: string;
  message?: A2aMessage;
}

/** A task as A2A 1.0 sends it: a run of a session. */
export interface A2aTask {
  id: string;
  contextId: string;
  status: A2aStatus;
  artifacts: Array<{ artifactId: string; name: string; parts: A2aPart[] }>;
  history: A2aMessage[];
}

/** The run statuses behind each state (a `done` run is completed or, blocked, rejected). */
export const runStatusesOfState: Record<string, RunStatus> = {
  TASK_STATE_SUBMITTED: 'queued',
  TASK_STATE_WORKING: 'running',
  TASK_STATE_INPUT_REQUIRED: 'interrupted',
  TASK_STATE_COMPLETED: 'done',
  TASK_STATE_REJECTED: 'done',
  TASK_STATE_FAILED: 'failed',
  TASK_STATE_CANCELED: 'cancelled',
};

/** The states a task no longer leaves. */
export const finalStates: readonly TaskState[] = [
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
];

/** The id of a task's answer artifact. */
export const answerArtifactId = (taskId: string) => `${taskId}:answer`;

/** A run's state as a task's (a guardrail's block is a rejection). */
export function stateOf(run: Pick<RunRecord, 'status' | 'result'>): TaskState {
  switch (run.status) {
    case 'queued':
      return 'TASK_STATE_SUBMITTED';
    case 'running':
      return 'TASK_STATE_WORKING';
    case 'interrupted':
      return 'TASK_STATE_INPUT_REQUIRED';
    case 'failed':
      return 'TASK_STATE_FAILED';
    case 'cancelled':
      return 'TASK_STATE_CANCELED';
    default:
      return (run.result as AgentResponse | undefined)?.status === 'blocked'
        ? 'TASK_STATE_REJECTED'
        : 'TASK_STATE_COMPLETED';
  }
}

/** An agent's message of a task. */
export function agentMessage(run: RunRecord, suffix: string, parts: A2aPart[]): A2aMessage {
  return {
    messageId: `${run.runId}:${suffix}`,
    contextId: run.sessionId,
    taskId: run.runId,
    role: 'ROLE_AGENT',
    parts,
  };
}

/**
 * What a task's status says: the approvals waited for (a data part `{interrupts}`), the
 * model's failure naming its `errorCode`, a guardrail's refusal, why it was cancelled.
 */
export function statusMessageOf(run: RunRecord, state: TaskState): A2aMessage | undefined {
  const result = run.result as AgentResponse | undefined;
  const text = result?.response ?? '';
  const withText = (parts: A2aPart[]) => (text === '' ? parts : [{ text }, ...parts]);
  switch (state) {
    case 'TASK_STATE_INPUT_REQUIRED':
      return agentMessage(
        run,
        'status',
        withText([{ data: { interrupts: result?.interrupts ?? [] } }]),
      );
    case 'TASK_STATE_FAILED': {
      const code = run.error?.code ?? result?.errorCode ?? 'run_failed';
      const message = result?.response ?? run.error?.message ?? '';
      return agentMessage(run, 'status', [
        { text: `${code}: ${message}` },
        { data: { errorCode: code } },
      ]);
    }
    case 'TASK_STATE_REJECTED':
      return agentMessage(
        run,
        'status',
        withText(
          result?.guardrail === undefined ? [] : [{ data: { guardrail: result.guardrail } }],
        ),
      );
    case 'TASK_STATE_CANCELED':
      return agentMessage(run, 'status', [
        { text: 'cancelled' },
        { data: { cancelReason: run.cancelReason ?? { type: 'request' } } },
      ]);
    default:
      return undefined;
  }
}

/**
 * A run as a task: its state and status message, the answer as the `answer` artifact once
 * completed, and its history (the user's message, then the answer), the last
 * `historyLength` messages when given.
 */
export function taskOf(run: RunRecord, historyLength?: number, includeArtifacts = true): A2aTask {
  const state = stateOf(run);
  const result = run.result as AgentResponse | undefined;
  const message = statusMessageOf(run, state);
  const history: A2aMessage[] = [];
  if (run.message !== undefined) {
    history.push({
      messageId: `${run.runId}:user`,
      contextId: run.sessionId,
      taskId: run.runId,
      role: 'ROLE_USER',
      parts: [{ text: run.message }],
    });
  }
  const answered = state === 'TASK_STATE_COMPLETED' && result !== undefined;
  if (answered) history.push(agentMessage(run, 'answer', [{ text: result.response }]));
  return {
    id: run.runId,
    contextId: run.sessionId,
    status: {
      state,
      timestamp: run.endedAt ?? run.startedAt ?? run.createdAt,
      ...(message === undefined ? {} : { message }),
    },
    artifacts:
      answered && includeArtifacts
        ? [
            {
              artifactId: answerArtifactId(run.runId),
              name: 'answer',
              parts: [{ text: result.response }],
            },
          ]
        : [],
    history: historyLength === undefined ? history : history.slice(history.length - historyLength),
  };
}
