import type { ServerResponse } from 'node:http';
import type {
  ResponseOutputItem,
  ResponseOutputMessage,
} from 'openai/resources/responses/responses';
import { createId } from '../../core/index.ts';
import { sseHeaders, writeInTick } from '../http/sse.ts';
import type { StreamEvent } from '../runs/run-streams.ts';
import { answerItem, type ResponseObject } from './response-object.ts';

/** How often a quiet stream gets a comment line, so proxies keep it open. */
const pingEveryMs = 15_000;

/** A text message being streamed: its id, place in `output`, and text so far. */
interface OpenMessage {
  id: string;
  index: number;
  text: string;
  closed: boolean;
}

/** A message of the session, as far as the stream needs it. */
export interface SessionMessage {
  id?: string;
  role: string;
  content: string;
  toolCalls?: unknown[];
}

/** Reads the session's messages as committed now. */
export type SessionMessages = () => Promise<SessionMessage[]>;

/** What a streamed response reads of its run's place. */
export interface ResponseStreamSetup {
  /**
   * The session the response is a turn of: how to read it, and the ids of its messages
   * before the run; absent when nothing is kept.
   */
  session?: { messages: SessionMessages; known: Iterable<string> };
  /**
   * Text goes out as the model writes it. False when the graph has output guardrails, which
   * may still replace an answer (a refusal): the answer then goes out whole when the run
   * ends, as the guardrails left it, and no other text goes out.
   */
  live: boolean;
}

/**
 * A streamed response as OpenAI sends it: `event: TYPE` / `data: {type, sequence_number, …}`
 * (numbered from 0) — `response.created`, `response.in_progress`, the answer's message
 * (`output_item.added`, `content_part.added`, `output_text.delta`…, `output_text.done`,
 * `content_part.done`, `output_item.done`), the other output items (added, done), and last
 * `response.completed`, `response.incomplete` or `response.failed`; no `[DONE]`.
 *
 * A response kept in a session streams each model call's text token by token, as a message
 * under the id the session stores it with (announced by `answerStart` before its first
 * token). The text of a call that goes on to call Yeoul's tools cannot be told from an answer
 * until the call ends: its message ends when a tool is called or the next call starts, and
 * it is not part of the response's `output` (the answer is the last call's). Text no call
 * announced goes out once its step is stored, under the id the session gives it. A response
 * that keeps nothing streams the text of every model call as it comes, into one message of
 * its own (a later call set off by a blank line).
 */
export class ResponseStream {
  #response: ServerResponse;
  #messages: SessionMessages | undefined;
  #live: boolean;
  /** The session's assistant messages already seen (before the run, or handled since). */
  #known: Set<string>;
  #sequence = 0;
  #ping: NodeJS.Timeout | undefined;
  #open = false;
  /** The messages streamed, by id. */
  #streamed = new Map<string, OpenMessage>();
  /** The message streamed last (the one still open, if any). */
  #message: OpenMessage | undefined;
  /** The place in `output` of the next item. */
  #nextIndex = 0;
  /** The message the `token` events now belong to ('' when no call announced one). */
  #announced = '';
  /** The text of the model call now writing (nothing kept). */
  #segment = '';
  /** Text no call announced, waiting for its step to be stored (a response kept in a session). */
  #pending: string[] = [];
  #queue: Promise<void> = Promise.resolve();

  constructor(response: ServerResponse, setup: ResponseStreamSetup) {
    this.#response = response;
    this.#messages = setup.session?.messages;
    this.#known = new Set(setup.session?.known ?? []);
    this.#live = setup.live;
  }

  /** Whether the headers went out (after that, errors are sent in the stream). */
  get isOpen(): boolean {
    return this.#open;
  }

  /** Sends the headers, `response.created` and `response.in_progress`. */
  open(requestId: string, pending: ResponseObject): void {
    if (this.#open) return;
    this.#open = true;
    this.#response.writeHead(200, { ...sseHeaders, 'x-request-id': requestId });
    this.#send('response.created', { response: pending });
    this.#send('response.in_progress', { response: pending });
    this.#ping = setInterval(() => {
      if (!this.#response.writableEnded) this.#response.write(': ping\n\n');
    }, pingEveryMs);
    this.#ping.unref();
  }

  /** Takes one of the run's events (handled in order, after the ones before it). */
  event(entry: StreamEvent): void {
    this.#queue = this.#queue.then(() => this.#handle(entry)).catch(() => undefined);
  }

  /**
   * The `token` events from here on are the text of the message stored under `messageId`:
   * a response kept in a session opens that message now.
   */
  answerStart(messageId: string): void {
    if (this.#messages === undefined || !this.#live) return;
    this.#queue = this.#queue.then(() => {
      this.#known.add(messageId);
      this.#announced = messageId;
      this.#answer(messageId, []);
    });
  }

  /**
   * Sends what `final` adds: the rest of its answer and its other items. Returns the response
   * as the stream told it, for `end`.
   */
  async settle(final: ResponseObject): Promise<ResponseObject> {
    await this.#queue;
    const answer = final.output.find((item) => item.type === 'message') as
      | ResponseOutputMessage
      | undefined;
    const text = (answer?.content[0] as { text?: string } | undefined)?.text;
    const output: ResponseOutputItem[] = [];
    if (answer !== undefined && text !== undefined) {
      const message = this.#finalMessage(answer.id, text);
      if (this.#message !== undefined && this.#message !== message) {
        this.#closeMessage(this.#message);
      }
      const told = this.#messages === undefined ? message.text + this.#restOf(text) : text;
      if (!message.closed && told.startsWith(message.text)) {
        this.#delta(message, told.slice(message.text.length));
      }
      if (!message.closed) message.text = told;
      this.#closeMessage(message);
      output.push(answerItem(message.id, told));
    } else if (this.#message !== undefined) {
      this.#closeMessage(this.#message);
    }
    for (const item of final.output) {
      if (item.type === 'message') continue;
      const index = this.#nextIndex;
      this.#nextIndex += 1;
      this.#send('response.output_item.added', { output_index: index, item });
      this.#send('response.output_item.done', { output_index: index, item });
      output.push(item);
    }
    return { ...final, output };
  }

  /** The event of the response's status (`response.completed`, `…incomplete`, `…failed`), and the end. */
  end(told: ResponseObject): void {
    const type =
      told.status === 'failed'
        ? 'response.failed'
        : told.status === 'incomplete'
          ? 'response.incomplete'
          : 'response.completed';
    this.#send(type, { response: told });
    this.close();
  }

  /** An error after the stream began: `response.failed` with it, then the end. */
  async fail(pending: ResponseObject, error: { code: string; message: string }): Promise<void> {
    await this.#queue;
    if (this.#message !== undefined) this.#closeMessage(this.#message);
    this.#send('response.failed', { response: { ...pending, status: 'failed', error } });
    this.close();
  }

  /** Stops the pings and ends the response (idempotent). */
  close(): void {
    clearInterval(this.#ping);
    if (!this.#response.writableEnded) this.#response.end();
  }

  /**
   * A run event: a token goes out at once (announced, or nothing kept) or waits for its step;
   * a step's end sends the answer it stored; a tool call ends the text of the call that
   * asked for it.
   */
  async #handle(entry: StreamEvent): Promise<void> {
    const data = entry.data as { phase?: string; text?: string };
    if (entry.event === 'step' && data.phase === 'start') {
      this.#segment = '';
    } else if (entry.event === 'step') {
      // Tokens after the announced call's step belong to no announced call.
      this.#announced = '';
      if (this.#pending.length > 0 && this.#messages) {
        const tokens = this.#pending;
        this.#pending = [];
        // A session that cannot be read now: the answer goes out whole when the run ends.
        await this.#stored(this.#messages, tokens).catch(() => undefined);
      }
    } else if (entry.event === 'token' && (data.text ?? '') !== '' && this.#live) {
      const text = data.text as string;
      if (this.#messages === undefined) this.#liveToken(text);
      else if (this.#announced !== '') {
        this.#delta(this.#streamed.get(this.#announced) as OpenMessage, text);
      } else this.#pending.push(text);
    } else if (entry.event === 'tool-call' && this.#messages && this.#message !== undefined) {
      this.#closeMessage(this.#message);
    }
  }

  /**
   * The message the final answer is told in: the one streamed under its id (nothing kept:
   * the one message), else a new one under the answer's id, with the text still waiting when
   * it is the answer's.
   */
  #finalMessage(id: string, text: string): OpenMessage {
    const open = this.#message;
    if (this.#messages === undefined && open !== undefined) return open;
    const streamed = this.#streamed.get(id);
    if (streamed !== undefined) return streamed;
    if (open !== undefined) this.#closeMessage(open);
    const waiting = this.#pending.join('') === text ? this.#pending : [];
    this.#pending = [];
    return this.#answer(id, waiting);
  }

  /** What of the last model call's `text` was not streamed yet (nothing kept). */
  #restOf(text: string): string {
    if (text.startsWith(this.#segment)) return text.slice(this.#segment.length);
    this.#segment = '';
    return this.#gapped(text);
  }

  /** A token of a response that keeps nothing: into the one message, at once. */
  #liveToken(text: string): void {
    const message = this.#message ?? this.#answer(`msg_${createId()}`, []);
    this.#delta(message, this.#gapped(text));
  }

  /** A new model call's first words after earlier text, set apart; counted in its segment. */
  #gapped(text: string): string {
    const before = this.#message?.text ?? '';
    const gap = this.#segment === '' && before !== '' && !before.endsWith('\n') ? '\n\n' : '';
    this.#segment += text;
    return gap + text;
  }

  /**
   * A step ended with text no call announced: the session's newest assistant message, when
   * the step stored one, is what the text was. An answer goes out under its id; the text of
   * a call that called tools is dropped.
   */
  async #stored(read: SessionMessages, tokens: string[]): Promise<void> {
    const fresh = (await read()).filter(
      (message) =>
        message.role === 'assistant' && message.id !== undefined && !this.#known.has(message.id),
    );
    for (const message of fresh) this.#known.add(message.id as string);
    const last = fresh.at(-1);
    if (last === undefined) {
      // A step of a run inside a node: its text is stored with the node's step.
      this.#pending = [...tokens, ...this.#pending];
      return;
    }
    if ((last.toolCalls ?? []).length > 0 || last.content === '') return;
    const deltas = tokens.join('') === last.content ? tokens : [last.content];
    this.#answer(last.id as string, deltas);
  }

  /** Opens a message under `id` (after any other, which it ends) and sends `deltas` into it. */
  #answer(id: string, deltas: string[]): OpenMessage {
    if (this.#message !== undefined) this.#closeMessage(this.#message);
    const index = this.#nextIndex;
    this.#nextIndex += 1;
    const message: OpenMessage = { id, index, text: '', closed: false };
    this.#message = message;
    this.#streamed.set(id, message);
    const item = { ...answerItem(id, ''), status: 'in_progress', content: [] };
    this.#send('response.output_item.added', { output_index: index, item });
    this.#send('response.content_part.added', {
      item_id: id,
      output_index: index,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    });
    for (const delta of deltas) this.#delta(message, delta);
    return message;
  }

  #delta(message: OpenMessage, text: string): void {
    if (text === '' || message.closed) return;
    message.text += text;
    this.#send('response.output_text.delta', {
      item_id: message.id,
      output_index: message.index,
      content_index: 0,
      delta: text,
      logprobs: [],
    });
  }

  #closeMessage(message: OpenMessage): void {
    if (message.closed) return;
    message.closed = true;
    const part = { type: 'output_text', text: message.text, annotations: [] };
    const at = { item_id: message.id, output_index: message.index, content_index: 0 };
    this.#send('response.output_text.done', { ...at, text: message.text, logprobs: [] });
    this.#send('response.content_part.done', { ...at, part });
    this.#send('response.output_item.done', {
      output_index: message.index,
      item: answerItem(message.id, message.text),
    });
  }

  #send(type: string, fields: Record<string, unknown>): void {
    if (this.#response.writableEnded) return;
    const data = { type, sequence_number: this.#sequence, ...fields };
    this.#sequence += 1;
    writeInTick(this.#response, `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  }
}
