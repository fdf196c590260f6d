import type { ServerResponse } from 'node:http';
import type { AgentResponse } from '../../agents/index.ts';
import { sseHeaders, writeInTick } from '../http/sse.ts';
import { endingOf } from '../runs/run-ledger.ts';
import type { RunRecord } from '../runs/run-store.ts';
import type { StreamEvent } from '../runs/run-streams.ts';
import type { StreamResult } from './a2a-legacy.ts';
import { answerArtifactId, stateOf, statusMessageOf, type TaskState } from './a2a-task.ts';

/** Sends one streamed result: its SSE id (the run event's, to rejoin after), and whether it is the last. */
export type SendResult = (result: StreamResult, id: string | undefined, final: boolean) => void;

/**
 * Turns a run's events into a task's stream: the answer's tokens as `artifactUpdate`s
 * (`append` after the first), then at `done` the rest of the answer (`lastChunk`) and the
 * final (or input-required) `statusUpdate`; a run that failed mid-way ends `TASK_STATE_FAILED`
 * naming its code. `rejoined`: the client had the events before its Last-Event-ID. `event`
 * returns true once the task's stream has ended.
 */
export function taskEvents(
  run: Pick<RunRecord, 'runId' | 'sessionId'>,
  send: SendResult,
  rejoined = false,
) {
  const ids = { taskId: run.runId, contextId: run.sessionId };
  let sent = '';
  // A client that rejoins after an event has the answer's earlier chunks already.
  let chunks = rejoined ? 1 : 0;
  const chunk = (text: string, id: string | undefined, lastChunk: boolean) => {
    send(
      {
        artifactUpdate: {
          ...ids,
          artifact: { artifactId: answerArtifactId(run.runId), name: 'answer', parts: [{ text }] },
          append: chunks > 0,
          lastChunk,
        },
      },
      id,
      false,
    );
    chunks += 1;
    sent += text;
  };
  const finish = (record: RunRecord, id: string | undefined) => {
    const state: TaskState = stateOf(record);
    if (state === 'TASK_STATE_COMPLETED') {
      const answer = (record.result as AgentResponse).response;
      const rest = !rejoined && answer.startsWith(sent) ? answer.slice(sent.length) : '';
      chunk(rest, id, true);
    }
    const message = statusMessageOf(record, state);
    const timestamp = new Date().toISOString();
    send(
      { statusUpdate: { ...ids, status: { state, timestamp, ...(message ? { message } : {}) } } },
      id,
      true,
    );
  };
  return {
    event(entry: StreamEvent): boolean {
      if (entry.event === 'token') {
        const text = (entry.data as { text?: string }).text ?? '';
        if (text !== '') chunk(text, entry.id, false);
        return false;
      }
      if (entry.event === 'done') {
        const payload = entry.data as AgentResponse;
        finish({ ...recordBase(run), ...endingOf(payload) }, entry.id);
        return true;
      }
      if (entry.event === 'error') {
        const error = entry.data as { code: string; message: string };
        finish({ ...recordBase(run), status: 'failed', error }, entry.id);
        return true;
      }
      return false;
    },
  };
}

function recordBase(run: Pick<RunRecord, 'runId' | 'sessionId'>): RunRecord {
  const now = new Date().toISOString();
  return {
    runId: run.runId,
    sessionId: run.sessionId,
    owner: '',
    status: 'running',
    source: 'a2a',
    graph: '',
    createdAt: now,
    startedAt: now,
    endedAt: now,
    attempts: 1,
    instanceId: '',
  };
}

/**
 * An A2A event stream on a response: `data:` lines (each with the run event's `id` to rejoin
 * after), every result wrapped by `frame` (a JSON-RPC response, or bare for HTTP+JSON).
 */
export class TaskEventStream {
  #response: ServerResponse;
  #frame: (result: StreamResult, final: boolean) => unknown;
  #ping: ReturnType<typeof setInterval> | undefined;

  constructor(response: ServerResponse, frame: (result: StreamResult, final: boolean) => unknown) {
    this.#response = response;
    this.#frame = frame;
  }

  /** Whether the headers went out. */
  get isOpen(): boolean {
    return this.#response.headersSent;
  }

  /** Sends the headers (the stream's status is then 200 whatever follows). */
  open(requestId: string): void {
    if (this.isOpen) return;
    this.#response.writeHead(200, { ...sseHeaders, 'x-request-id': requestId });
    this.#ping = setInterval(() => {
      if (!this.#response.writableEnded) this.#response.write(': ping\n\n');
    }, 15_000);
    this.#ping.unref();
  }

  /** Writes one result. */
  send(result: StreamResult, id: string | undefined, final: boolean): void {
    if (this.#response.writableEnded || this.#response.destroyed) return;
    const line = `data: ${JSON.stringify(this.#frame(result, final))}\n\n`;
    this.#response.write(id === undefined ? line : `id: ${id}\n${line}`);
  }

  /** Writes a JSON-RPC error (or any body) as the stream's last event. */
  sendRaw(body: unknown): void {
    writeInTick(this.#response, `data: ${JSON.stringify(body)}\n\n`);
  }

  /** Ends the stream. */
  close(): void {
    clearInterval(this.#ping);
    if (!this.#response.writableEnded) this.#response.end();
  }
}
