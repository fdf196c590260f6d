import type { A2aMessage, A2aPart, A2aStatus, A2aTask } from './a2a-task.ts';

/** One streamed result in A2A 1.0's shape: `{task}`, `{statusUpdate}` or `{artifactUpdate}`. */
export type StreamResult =
  | { task: A2aTask }
  | {
      statusUpdate: { taskId: string; contextId: string; status: A2aStatus };
    }
  | {
      artifactUpdate: {
        taskId: string;
        contextId: string;
        artifact: { artifactId: string; name: string; parts: A2aPart[] };
        append: boolean;
        lastChunk: boolean;
      };
    };

/** A 1.0 state as 0.3 says it: `TASK_STATE_INPUT_REQUIRED` → `input-required`. */
export function stateTo03(state: string): string {
  return state
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replaceAll('_', '-');
}

function partTo03(part: A2aPart) {
  return 'text' in part ? { kind: 'text', text: part.text } : { kind: 'data', data: part.data };
}

function messageTo03(message: A2aMessage) {
  return {
    kind: 'message',
    messageId: message.messageId,
    role: message.role === 'ROLE_USER' ? 'user' : 'agent',
    parts: message.parts.map(partTo03),
    contextId: message.contextId,
    taskId: message.taskId,
  };
}

function statusTo03(status: A2aStatus) {
  return {
    state: stateTo03(status.state),
    timestamp: status.timestamp,
    ...(status.message === undefined ? {} : { message: messageTo03(status.message) }),
  };
}

/** A task in 0.3's shape (`kind: "task"`, lowercase states, `kind`ed parts). */
export function taskTo03(task: A2aTask) {
  return {
    kind: 'task',
    id: task.id,
    contextId: task.contextId,
    status: statusTo03(task.status),
    artifacts: task.artifacts.map((artifact) => ({
      artifactId: artifact.artifactId,
      name: artifact.name,
      parts: artifact.parts.map(partTo03),
    })),
    history: task.history.map(messageTo03),
  };
}

/** A streamed result in 0.3's shape: the task, a `status-update` (with `final`) or an `artifact-update`. */
export function streamResultTo03(result: StreamResult, final: boolean) {
  if ('task' in result) return taskTo03(result.task);
  if ('statusUpdate' in result) {
    const { taskId, contextId, status } = result.statusUpdate;
    return { kind: 'status-update', taskId, contextId, status: statusTo03(status), final };
  }
  const { taskId, contextId, artifact, append, lastChunk } = result.artifactUpdate;
  return {
    kind: 'artifact-update',
    taskId,
    contextId,
    artifact: { ...artifact, parts: artifact.parts.map(partTo03) },
    append,
    lastChunk,
  };
}
