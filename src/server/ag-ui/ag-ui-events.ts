import type { BaseEvent } from '@ag-ui/core';
import { EventType } from '@ag-ui/core';
import type { AgentResponse } from '../../agents/index.ts';
import type { ChatMessage } from '../../models/index.ts';
import type { StreamEvent } from '../runs/run-streams.ts';
import { outcomeOf } from './ag-ui-outcome.ts';
import type { WaitingCall } from './ag-ui-turn.ts';

/** Where an AG-UI run's events go and what it reads of its session. */
export interface AgUiRunSetup {
  threadId: string;
  runId: string;
  /** Writes one event (the first write opens the stream). */
  write(event: BaseEvent): void;
  /** The session's messages as committed now. */
  messages(): Promise<ChatMessage[]>;
  /** The session's messages when the run began: never sent again. */
  seen: Iterable<string>;
  /** Calls an earlier run already sent (approvals being decided now): not started again. */
  startedBefore: Iterable<string>;
  /** Calls whose results the client brought itself: their results are not sent back. */
  answeredByClient: Iterable<string>;
  /**
   * Answers go out token by token as the model writes them. False when the graph has output
   * guardrails, which may still replace an answer (a refusal): each answer then goes out
   * once committed, and one without tool calls at the run's end, as the guardrails left it.
   */
  live: boolean;
}

/**
 * Turns one run's Yeoul events into AG-UI's, in order: RUN_STARTED, the steps around their
 * nodes, each tool call and (once committed, under the session's ids) its result, each
 * answer as a text message under the id the session gives it, then RUN_FINISHED or
 * RUN_ERROR with every message and step closed. The session is read when a node ends, so
 * that message ids are the committed ones. An answer announced with its id (`answerStart`)
 * streams live, token by token; other text goes out when its node ends (see `live`).
 */
export class AgUiEventStream {
  readonly #setup: AgUiRunSetup;
  readonly #seen: Set<string>;
  readonly #started: Set<string>;
  readonly #answeredByClient: Set<string>;
  /** The assistant message holding each tool call. */
  readonly #parentOf = new Map<string, string>();
  /** Open steps by name (a nested node of the same name runs inside the open one). */
  readonly #openSteps = new Map<string, number>();
  /** Text not sent yet, by the answer it was announced for ('' before any announcement). */
  readonly #pieces = new Map<string, string[]>();
  /** The answer the tokens now belong to ('' when none was announced). */
  #announced = '';
  /** Answers streamed live: the text sent under each id. */
  readonly #streamed = new Map<string, string>();
  /** The live answer whose TEXT_MESSAGE_END is still to come. */
  #open: string | undefined;
  /** Answers without tool calls held until the run's end (output guardrails may replace them). */
  readonly #held: string[] = [];
  #queue: Promise<void> = Promise.resolve();
  #began = false;

  constructor(setup: AgUiRunSetup) {
    this.#setup = setup;
    this.#seen = new Set(setup.seen);
    this.#started = new Set(setup.startedBefore);
    this.#answeredByClient = new Set(setup.answeredByClient);
  }

  /** Takes one of the run's events (handled in order, after the ones before it). */
  push(entry: StreamEvent): void {
    this.#queue = this.#queue.then(() => this.#handle(entry));
  }

  /** The `token` events from here on are the text of the answer stored under `messageId`. */
  answerStart(messageId: string): void {
    this.#queue = this.#queue.then(() => {
      this.#closeText();
      this.#announced = messageId;
    });
  }

  /** Ends the stream as the run's answer says (its pending calls read from the session). */
  async finish(payload: AgentResponse, waiting: WaitingCall[]): Promise<void> {
    await this.#drain();
    await this.#flush();
    if (payload.status !== 'cancelled') await this.#sendHeld();
    this.#closeText();
    if (payload.status === 'error') {
      this.#closeSteps();
      this.#emit({
        type: EventType.RUN_ERROR,
        message: payload.response,
        code: payload.errorCode ?? 'run_failed',
      });
      return;
    }
    const approvals = waiting.filter((call) => call.type === 'tool-approval');
    for (const call of approvals) this.#toolCall(call.toolCallId, call.tool, call.args);
    this.#closeSteps();
    this.#emit({
      type: EventType.RUN_FINISHED,
      threadId: this.#setup.threadId,
      runId: this.#setup.runId,
      outcome: outcomeOf(payload, waiting),
    });
  }

  /** Ends the stream with RUN_ERROR: the run failed after it began. */
  async fail(code: string, message: string): Promise<void> {
    await this.#drain();
    this.#closeText();
    this.#closeSteps();
    this.#emit({ type: EventType.RUN_ERROR, message, code });
  }

  async #drain(): Promise<void> {
    await this.#queue.catch(() => undefined);
    this.#begin();
  }

  async #handle(entry: StreamEvent): Promise<void> {
    this.#begin();
    const data = (entry.data ?? {}) as Record<string, unknown>;
    switch (entry.event) {
      case 'step': {
        const node = String(data.node);
        if (data.phase === 'start') this.#stepStarted(node);
        else {
          await this.#flush();
          this.#stepFinished(node);
        }
        return;
      }
      case 'token':
        if (typeof data.text === 'string' && data.text !== '') this.#token(data.text);
        return;
      case 'tool-call': {
        const id = String(data.id);
        if (!this.#parentOf.has(id)) await this.#flush();
        this.#toolCall(id, String(data.name), data.args);
        return;
      }
      default:
        // Results go out once committed (at their node's end); interrupts and the answer
        // at the end; guardrail reports stay Yeoul's.
        return;
    }
  }

  #begin(): void {
    if (this.#began) return;
    this.#began = true;
    this.#emit({
      type: EventType.RUN_STARTED,
      threadId: this.#setup.threadId,
      runId: this.#setup.runId,
    });
  }

  /** A token: sent at once when its answer streams live, else kept for when it is committed. */
  #token(text: string): void {
    const messageId = this.#announced;
    if (!this.#setup.live || messageId === '' || this.#seen.has(messageId)) {
      const pieces = this.#pieces.get(messageId) ?? [];
      pieces.push(text);
      this.#pieces.set(messageId, pieces);
      return;
    }
    if (this.#open !== messageId) {
      this.#closeText();
      this.#open = messageId;
      this.#emit({ type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' });
    }
    this.#streamed.set(messageId, (this.#streamed.get(messageId) ?? '') + text);
    this.#emit({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: text });
  }

  /** Sends what the session gained since the last look: answers, and results of tool calls. */
  async #flush(): Promise<void> {
    const messages = await this.#setup.messages();
    for (const message of messages) {
      if (message.id === undefined || this.#seen.has(message.id)) continue;
      this.#seen.add(message.id);
      // Tokens after the announced answer is committed belong to no announced answer.
      if (message.id === this.#announced) this.#announced = '';
      if (message.role === 'assistant') {
        for (const call of message.toolCalls ?? []) this.#parentOf.set(call.id, message.id);
        const streamed = this.#streamed.get(message.id);
        if (streamed !== undefined) {
          // Streamed live: what the committed answer adds to it, if anything, then its end.
          const rest = message.content.startsWith(streamed)
            ? message.content.slice(streamed.length)
            : '';
          if (rest !== '' && this.#open === message.id) {
            this.#emit({
              type: EventType.TEXT_MESSAGE_CONTENT,
              messageId: message.id,
              delta: rest,
            });
          }
          if (this.#open === message.id) this.#closeText();
        } else if (!this.#setup.live && !message.toolCalls?.length) {
          this.#held.push(message.id);
        } else if (message.content !== '') {
          this.#text(message.id, message.content);
        }
      } else if (message.role === 'tool' && message.toolCallId !== undefined) {
        if (this.#answeredByClient.has(message.toolCallId)) continue;
        this.#emit({
          type: EventType.TOOL_CALL_RESULT,
          messageId: message.id,
          toolCallId: message.toolCallId,
          content: message.content,
          role: 'tool',
        });
      }
    }
    this.#pieces.delete('');
  }

  /** The answers held to the run's end, as committed now (a blocked one is its refusal). */
  async #sendHeld(): Promise<void> {
    if (this.#held.length === 0) return;
    const messages = await this.#setup.messages();
    for (const messageId of this.#held.splice(0)) {
      const content = messages.find((message) => message.id === messageId)?.content ?? '';
      if (content !== '') this.#text(messageId, content);
    }
  }

  /**
   * A committed answer as one text message: the tokens announced for it (or, unannounced,
   * the node's) when they make it up, else the whole text.
   */
  #text(messageId: string, content: string): void {
    const pieces = this.#pieces.get(messageId) ?? this.#pieces.get('') ?? [];
    this.#pieces.delete(messageId);
    const deltas = pieces.join('') === content ? pieces : [content];
    this.#emit({ type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' });
    for (const delta of deltas) {
      this.#emit({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta });
    }
    this.#emit({ type: EventType.TEXT_MESSAGE_END, messageId });
  }

  /** Ends the live answer's text message, if one is open. */
  #closeText(): void {
    if (this.#open === undefined) return;
    this.#emit({ type: EventType.TEXT_MESSAGE_END, messageId: this.#open });
    this.#open = undefined;
  }

  #toolCall(toolCallId: string, name: string, args: unknown): void {
    if (this.#started.has(toolCallId)) return;
    this.#started.add(toolCallId);
    const parentMessageId = this.#parentOf.get(toolCallId);
    this.#emit({
      type: EventType.TOOL_CALL_START,
      toolCallId,
      toolCallName: name,
      ...(parentMessageId === undefined ? {} : { parentMessageId }),
    });
    const delta = typeof args === 'string' ? args : JSON.stringify(args ?? {});
    this.#emit({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta });
    this.#emit({ type: EventType.TOOL_CALL_END, toolCallId });
  }

  #stepStarted(node: string): void {
    const open = this.#openSteps.get(node) ?? 0;
    this.#openSteps.set(node, open + 1);
    if (open === 0) this.#emit({ type: EventType.STEP_STARTED, stepName: node });
  }

  #stepFinished(node: string): void {
    const open = this.#openSteps.get(node) ?? 0;
    if (open === 0) return;
    if (open > 1) {
      this.#openSteps.set(node, open - 1);
      return;
    }
    this.#openSteps.delete(node);
    this.#emit({ type: EventType.STEP_FINISHED, stepName: node });
  }

  #closeSteps(): void {
    for (const node of [...this.#openSteps.keys()].reverse()) {
      this.#openSteps.delete(node);
      this.#emit({ type: EventType.STEP_FINISHED, stepName: node });
    }
  }

  #emit(event: BaseEvent & Record<string, unknown>): void {
    this.#setup.write(event);
  }
}
