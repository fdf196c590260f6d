import type { AgentResponse } from '../../agents/index.ts';
import type { HistoryEntry, StateSchema } from '../../graph/index.ts';
import type { ChatMessage } from '../../models/index.ts';
import {
  type LangGraphInterrupt,
  toLangChainMessage,
  toLangGraphUpdate,
  toLangGraphValues,
} from './langgraph-messages.ts';
import {
  checkpointEvents,
  type LangGraphEvent,
  namedIn,
  taskEndEvents,
  taskStartEvents,
} from './langgraph-step-events.ts';
import { namespaceOf, subgraphStepEvents } from './langgraph-subgraph-events.ts';

/** What the translator reads of the run's thread. */
export interface ThreadReader {
  /** The thread's stored steps, oldest first. */
  history(): Promise<HistoryEntry<StateSchema>[]>;
  /** The interrupts the thread waits on now, as LangGraph shows them. */
  pending(): Promise<LangGraphInterrupt[]>;
}

/** Who the stream is of and what it sends. */
export interface TranslatorSetup {
  runId: string;
  threadId: string;
  /**
   * The thread's last step before the run (or this part of it) began: its steps come after.
   * `join`: worked out from the first event followed — a paused run's later part (its events
   * numbered past 1) starts after its last `resume` step, a run's first part at its start.
   */
  after: number | 'join';
  reader: ThreadReader;
  /**
   * Answers go out token by token as the model writes them. False when the graph has output
   * guardrails, which may still replace an answer (a refusal): each answer then goes out once
   * its step is stored, as the guardrails left it.
   */
  live: boolean;
  emit(event: LangGraphEvent): void;
}

/** One of the run's events as the translator takes it: its SSE id, and a token's answer id. */
export interface RunEventIn {
  event: string;
  data: unknown;
  id?: string;
  answerId?: string;
}

/**
 * Turns a Yeoul run's events (`step`, `token`, `tool-call`, `interrupt`, `error`, `done`) into
 * LangGraph's stream, every mode at once (the client's sink picks, so an event's number is
 * the same whichever modes a client follows): `metadata` first, then per stored step `updates` and `values`, the
 * answer's tokens as `messages` chunks carrying the answer's id in the state (as they come
 * when the token names its answer and the stream is `live`, else once the step is stored),
 * other new messages whole — an answer that streamed and ends in tool calls is then sent
 * whole too; a paused run's last `values` carry `__interrupt__`, a failed one ends with
 * `error`. The same events give the same stream, so a joiner gets what the live client got.
 * Events are handled one at a time.
 */
export class LangGraphStreamTranslator {
  #setup: TranslatorSetup;
  #lastStep: number | undefined;
  /** Tokens held to the end of their step (not named with an answer, or not `live`). */
  #tokens: string[] = [];
  /** The text streamed live under each answer id, until its step is stored. */
  readonly #streamed = new Map<string, string>();
  /** What each message of the run was last sent as (streamed or whole): not sent again as it is. */
  readonly #sent = new Map<string, string>();
  /** The run's own node that started last: the one live tokens are written in. */
  #running: { node: string; superstep: number | undefined } = { node: '', superstep: undefined };
  #queue: Promise<void> = Promise.resolve();
  #lastValues: Record<string, unknown> | undefined;
  /** Nodes whose end was heard and whose stored step was not sent yet, in order. */
  #ended: string[] = [];

  constructor(setup: TranslatorSetup) {
    this.#setup = setup;
    this.#lastStep = setup.after === 'join' ? undefined : setup.after;
    setup.emit({
      event: 'metadata',
      data: { run_id: setup.runId, thread_id: setup.threadId, attempt: 1 },
    });
  }

  /** Takes one Yeoul event (with its SSE id); resolves once everything it led to was emitted. */
  push(entry: RunEventIn): Promise<void> {
    this.#queue = this.#queue.then(async () => {
      this.#lastStep ??= await this.#startOf(entry.id);
      await this.#handle(entry);
    });
    return this.#queue;
  }

  /** Where a joined run's part starts: after the step before its last `resume`, else anywhere. */
  async #startOf(id: string | undefined): Promise<number> {
    if (!(Number(id?.split(':').at(-1)) > 1)) return -1;
    const resumed = (await this.#setup.reader.history()).findLast(
      (entry) =>
        entry.runId === this.#setup.runId && entry.path === undefined && entry.kind === 'resume',
    );
    return resumed === undefined ? -1 : resumed.step - 1;
  }

  async #handle(entry: RunEventIn): Promise<void> {
    const { event: name, data } = entry;
    if (name === 'token') {
      this.#token((data as { text: string }).text, entry.answerId);
      return;
    }
    if (name === 'custom') {
      const custom = data as { data?: unknown; node?: string; path?: string[] };
      const namespace = namespaceOf(custom.path ?? [], custom.node);
      this.#setup.emit({ event: namedIn('custom', namespace), data: custom.data });
      return;
    }
    if (name === 'step') {
      const step = data as {
        phase?: string;
        node?: string;
        runId?: string;
        superstep?: number;
        path?: string[];
      };
      // Inner graph runs (an agent's) are not this run's own.
      if (step.runId !== undefined && step.runId !== this.#setup.runId) return;
      if (step.phase === 'start') {
        const namespace = namespaceOf(step.path ?? [], step.node);
        const node = step.node ?? '';
        if (step.path === undefined) this.#running = { node, superstep: step.superstep };
        for (const event of taskStartEvents(this.#setup.runId, node, step.superstep, namespace)) {
          this.#setup.emit(event);
        }
        return;
      }
      // A subgraph's steps are sent with the step of its node, which `history` shows after them.
      if (step.path !== undefined) return;
      this.#ended.push(step.node ?? '');
      await this.#catchUp(false);
      return;
    }
    if (!['interrupt', 'error', 'done'].includes(name)) return;
    await this.#catchUp(true);
    if (name === 'error') {
      const failure = data as { code?: string; message?: string };
      this.#setup.emit({ event: 'error', data: { error: failure.code, message: failure.message } });
    }
    if (name === 'done') await this.#finish(data as AgentResponse);
  }

  /**
   * Sends the stored steps of the run not sent yet: a node's step once its end was heard (so
   * a replay sends the same events in the same order as the live run did), all at its end.
   */
  async #catchUp(all: boolean): Promise<void> {
    const { runId, threadId, emit } = this.#setup;
    const history = await this.#setup.reader.history();
    const points = history.filter((entry) => entry.path === undefined);
    let inner: HistoryEntry<StateSchema>[] = [];
    let index = -1;
    for (const entry of history) {
      if (entry.path !== undefined) {
        inner.push(entry);
        continue;
      }
      index += 1;
      // The subgraph steps just before a step are those of its node.
      const subgraphSteps = inner;
      inner = [];
      if (entry.runId !== runId || entry.step <= (this.#lastStep ?? -1)) continue;
      const node = entry.node ?? entry.kind;
      const ran = entry.kind === 'node' || entry.kind === 'task';
      if (!all && ran) {
        const heard = this.#ended.indexOf(node);
        if (heard === -1) return;
        this.#ended.splice(0, heard + 1);
      }
      this.#lastStep = entry.step;
      for (const event of subgraphStepEvents(runId, threadId, subgraphSteps)) emit(event);
      if (!ran && entry.kind !== 'input') continue;
      if (ran && entry.update !== null) {
        emit({ event: 'updates', data: { [node]: toLangGraphUpdate(entry.update) } });
      }
      if (ran) for (const event of taskEndEvents(runId, entry)) emit(event);
      for (const event of checkpointEvents(threadId, entry, points[index - 1]?.step)) emit(event);
      if (ran && entry.update !== null) {
        this.#sendMessages(entry, node);
      }
      const values = toLangGraphValues(entry.values);
      this.#lastValues = values;
      emit({ event: 'values', data: values });
    }
  }

  /** A token: a chunk at once when it names its answer and the stream is live, else held. */
  #token(text: string, answerId: string | undefined): void {
    if (!this.#setup.live || answerId === undefined) {
      this.#tokens.push(text);
      return;
    }
    this.#streamed.set(answerId, (this.#streamed.get(answerId) ?? '') + text);
    const { node, superstep } = this.#running;
    this.#chunk(answerId, text, this.#metadataOf(node, superstep));
  }

  #chunk(id: string | undefined, content: string, metadata: object): void {
    this.#setup.emit({
      event: 'messages',
      data: [{ type: 'AIMessageChunk', id, content }, metadata],
    });
  }

  #metadataOf(node: string, superstep: number | undefined) {
    const { runId, threadId } = this.#setup;
    return {
      langgraph_node: node,
      langgraph_step: superstep,
      run_id: runId,
      thread_id: threadId,
      tags: [],
    };
  }

  /**
   * The messages a step added: an answer streamed live only for what its stored text adds,
   * a held answer as its chunks, every other one — and one with tool calls — whole.
   */
  #sendMessages(entry: HistoryEntry<StateSchema>, node: string): void {
    const { emit } = this.#setup;
    const added = (entry.update as { messages?: unknown }).messages;
    const list = (
      Array.isArray(added) ? added : added === undefined ? [] : [added]
    ) as ChatMessage[];
    const metadata = this.#metadataOf(node, entry.superstep);
    for (const message of list) {
      if (!('role' in message)) continue;
      const whole = toLangChainMessage(message);
      // A node that rewrites messages (the guardrails' marks) does not send them again.
      const form = JSON.stringify(whole);
      if (message.id !== undefined) {
        if (this.#sent.get(message.id) === form) continue;
        this.#sent.set(message.id, form);
      }
      const live = message.id === undefined ? undefined : this.#streamed.get(message.id);
      if (message.role === 'assistant' && live !== undefined) {
        this.#streamed.delete(message.id as string);
        const rest = message.content.startsWith(live) ? message.content.slice(live.length) : '';
        if (rest !== '') this.#chunk(message.id, rest, metadata);
        if ((message.toolCalls ?? []).length === 0) continue;
      } else {
        const held = this.#tokens.join('');
        if (message.role === 'assistant' && held !== '' && held === message.content) {
          for (const text of this.#tokens) this.#chunk(message.id, text, metadata);
          this.#tokens = [];
          if ((message.toolCalls ?? []).length === 0) continue;
        }
      }
      emit({ event: 'messages', data: [whole, metadata] });
    }
  }

  /** A paused run's last `values` (and `updates`) carry `__interrupt__`; a failed answer ends with `error`. */
  async #finish(answer: AgentResponse): Promise<void> {
    const { emit } = this.#setup;
    if (answer.error) {
      emit({ event: 'error', data: { error: answer.errorCode, message: answer.response } });
      return;
    }
    if (answer.status !== 'interrupted') return;
    const interrupts = await this.#setup.reader.pending();
    if (interrupts.length === 0) return;
    emit({ event: 'updates', data: { __interrupt__: interrupts } });
    emit({ event: 'values', data: { ...(this.#lastValues ?? {}), __interrupt__: interrupts } });
  }
}
