import type { ServerResponse } from 'node:http';
import type {
  ResponseOutputItem,
  ResponseOutputMessage,
} from 'openai/resources/responses/responses';
import { createId } from '../../core/index.ts';
import { sseHeaders } from '../http/sse.ts';
import type { StreamEvent } from '../runs/run-streams.ts';
import { answerItem, type ResponseObject } from './response-object.ts';

/** How often a quiet stream gets a comment line, so proxies keep it open. */
const pingEveryMs = 15_000;

/** The text message being streamed: its id, place in `output`, and text so far. */
interface OpenMessage {
  id: string;
  index: number;
  text: string;
}

/**
 * A streamed response as OpenAI sends it: `event: TYPE` / `data: {type, sequence_number, …}`
 * (numbered from 0) — `response.created`, `response.in_progress`, the answer's message
 * (`output_item.added`, `content_part.added`, `output_text.delta`…, `output_text.done`,
 * `content_part.done`, `output_item.done`), the other output items (added, done), and last
 * `response.completed`, `response.incomplete` or `response.failed`; no `[DONE]`. The text of
 * every model call of the run streams into one message (a later call set off by a blank line).
 */
export class ResponseStream {
  #response: ServerResponse;
  #tokens: boolean;
  #sequence = 0;
  #ping: NodeJS.Timeout | undefined;
  #open = false;
  #message: OpenMessage | undefined;
  /** The text of the model call now writing. */
  #segment = '';

  /** `tokens: false` sends the answer whole at the end (the ops loop may write several). */
  constructor(response: ServerResponse, tokens = true) {
    this.#response = response;
    this.#tokens = tokens;
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

  /** Hands a run event over: `token` text goes out at once; a new step starts a new model call's text. */
  event(entry: StreamEvent): void {
    if (entry.event === 'step' && (entry.data as { phase?: string }).phase === 'start') {
      this.#segment = '';
    } else if (entry.event === 'token' && this.#tokens) {
      const text = (entry.data as { text?: string }).text ?? '';
      if (text !== '') this.#text(text);
    }
  }

  /**
   * Sends what `final` adds: the rest of its answer and its other items. Returns the response
   * as the stream told it (its message holding what was streamed), for `end`.
   */
  settle(final: ResponseObject): ResponseObject {
    const answer = final.output.find((item) => item.type === 'message') as
      | ResponseOutputMessage
      | undefined;
    const text = (answer?.content[0] as { text?: string } | undefined)?.text;
    if (text !== undefined) {
      if (text.startsWith(this.#segment)) {
        const rest = text.slice(this.#segment.length);
        if (rest !== '' || this.#message === undefined) this.#text(rest);
      } else {
        this.#segment = '';
        this.#text(text);
      }
    }
    const output: ResponseOutputItem[] = [];
    const message = this.#message;
    if (message !== undefined) {
      this.#closeMessage(message);
      output.push(answerItem(message.id, message.text));
    }
    for (const item of final.output) {
      if (item.type === 'message') continue;
      const index = output.length;
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
  fail(pending: ResponseObject, error: { code: string; message: string }): void {
    if (this.#message !== undefined) this.#closeMessage(this.#message);
    this.#send('response.failed', { response: { ...pending, status: 'failed', error } });
    this.close();
  }

  /** Stops the pings and ends the response (idempotent). */
  close(): void {
    clearInterval(this.#ping);
    if (!this.#response.writableEnded) this.#response.end();
  }

  #text(text: string): void {
    let message = this.#message;
    if (message === undefined) {
      message = { id: `msg_${createId()}`, index: 0, text: '' };
      this.#message = message;
      const item = { ...answerItem(message.id, ''), status: 'in_progress', content: [] };
      this.#send('response.output_item.added', { output_index: 0, item });
      this.#send('response.content_part.added', {
        item_id: message.id,
        output_index: 0,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
    }
    // A new model call's first words after earlier text: set them apart.
    const gap =
      this.#segment === '' && message.text !== '' && !message.text.endsWith('\n') ? '\n\n' : '';
    this.#segment += text;
    message.text += gap + text;
    if (gap + text === '') return;
    this.#send('response.output_text.delta', {
      item_id: message.id,
      output_index: 0,
      content_index: 0,
      delta: gap + text,
      logprobs: [],
    });
  }

  #closeMessage(message: OpenMessage): void {
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
    this.#response.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  }
}
