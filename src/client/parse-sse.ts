/** One Server-Sent Event: its `event` name (default `message`), `data` text and `id`. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/** Folds SSE lines into events, per the HTML spec's rules. */
class EventBuilder {
  #data: string[] = [];
  #event = '';
  #id: string | undefined;

  /** Takes one line; a blank line ends an event, which is returned if it had data. */
  line(line: string): SseEvent | undefined {
    if (line === '') {
      const event =
        this.#data.length > 0
          ? { event: this.#event || 'message', data: this.#data.join('\n'), id: this.#id }
          : undefined;
      this.#data = [];
      this.#event = '';
      return event;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
    else if (field === 'id' && !value.includes('\0')) this.#id = value;
    return undefined;
  }
}

/**
 * Reads Server-Sent Events from a fetch body (EventSource cannot POST or send headers).
 * Follows the HTML spec's parsing: `\n`, `\r\n` or `\r` line ends, `:` comments ignored,
 * multi-line `data` joined with `\n`, an event dispatched at each blank line.
 * @example
 * for await (const event of parseSse(response.body)) console.log(event.event, JSON.parse(event.data));
 */
export async function* parseSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body
    .pipeThrough(new TextDecoderStream() as ReadableWritablePair<string, Uint8Array>)
    .getReader();
  const builder = new EventBuilder();
  let buffer = '';
  let finished = false;
  try {
    while (!finished) {
      const { value, done } = await reader.read();
      finished = done;
      buffer += value ?? '';
      // A trailing \r may be the first half of \r\n: it waits for the next chunk, or the end.
      const lines = buffer.split(/\r\n|\n|\r(?=[^\n])/);
      buffer = lines.pop() ?? '';
      if (finished && buffer.endsWith('\r')) lines.push(buffer.slice(0, -1));
      for (const line of lines) {
        const event = builder.line(line);
        if (event) yield event;
      }
    }
  } finally {
    // The caller broke off early: let the connection go.
    if (!finished) reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
