import type { ServerResponse } from 'node:http';
import type { AgentResponse } from '../../agents/index.ts';
import { sseHeaders, writeInTick } from '../http/sse.ts';
import type { StreamEvent } from '../runs/run-streams.ts';
import {
  type CompletionIdentity,
  chunkOf,
  finishReasonOf,
  usageChunkOf,
  usageOf,
  yeoulExtension,
} from './chat-completion-response.ts';
import type { OpenAiErrorBody } from './openai-error.ts';

/** How often a quiet stream gets a comment line, so proxies keep it open. */
const pingEveryMs = 15_000;

/**
 * A streamed completion as OpenAI sends it: `data: {chat.completion.chunk}` lines — the
 * role first, the answer's text as the model writes it, the rest of the answer and a
 * last chunk with `finish_reason` (and `usage`, or a usage-only chunk when the request
 * asked for `stream_options.include_usage`), then `data: [DONE]`. Text a model wrote
 * before a tool call stays, set off from what follows by a blank line.
 */
export class CompletionStream {
  #response: ServerResponse;
  #identity: CompletionIdentity;
  #ping: NodeJS.Timeout | undefined;
  /** All text sent so far, and the text of the model call now writing. */
  #sent = '';
  #segment = '';
  #open = false;

  #tokens: boolean;

  /** `tokens: false` sends the answer whole at the end (the ops loop may write several). */
  constructor(response: ServerResponse, identity: CompletionIdentity, tokens = true) {
    this.#response = response;
    this.#identity = identity;
    this.#tokens = tokens;
  }

  /** Whether the headers went out (after that, errors are sent in the stream). */
  get isOpen(): boolean {
    return this.#open;
  }

  /** Sends the headers and the role chunk. */
  open(requestId: string): void {
    if (this.#open) return;
    this.#open = true;
    this.#response.writeHead(200, { ...sseHeaders, 'x-request-id': requestId });
    this.#write(chunkOf(this.#identity, { role: 'assistant', content: '' }));
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

  /** The rest of the answer `content`, the last chunk(s) and `[DONE]`. */
  finish(
    content: string,
    payload: AgentResponse,
    sessionId: string | null,
    includeUsage: boolean,
  ): void {
    if (content.startsWith(this.#segment)) {
      const rest = content.slice(this.#segment.length);
      if (rest !== '') this.#text(rest);
    } else {
      this.#segment = '';
      this.#text(content);
    }
    const yeoul = yeoulExtension(payload, sessionId);
    this.#write(
      chunkOf(
        this.#identity,
        {},
        finishReasonOf(payload),
        includeUsage ? { yeoul } : { usage: usageOf(payload), yeoul },
      ),
    );
    if (includeUsage) this.#write(usageChunkOf(this.#identity, payload));
    this.#end();
  }

  /** An error after the stream began, as OpenAI streams one: `data: {error}`, then `[DONE]`. */
  fail(body: OpenAiErrorBody): void {
    this.#write(body);
    this.#end();
  }

  /** Stops the pings and ends the response (idempotent). */
  close(): void {
    clearInterval(this.#ping);
    if (!this.#response.writableEnded) this.#response.end();
  }

  #text(text: string): void {
    // A new model call's first words after earlier text: set them apart.
    const gap =
      this.#segment === '' && this.#sent !== '' && !this.#sent.endsWith('\n') ? '\n\n' : '';
    this.#segment += text;
    this.#sent += gap + text;
    this.#write(chunkOf(this.#identity, { content: gap + text }));
  }

  #write(data: unknown): void {
    writeInTick(this.#response, `data: ${JSON.stringify(data)}\n\n`);
  }

  #end(): void {
    if (!this.#response.writableEnded) this.#response.write('data: [DONE]\n\n');
    this.close();
  }
}
