import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { StreamEvent } from '../runs/run-streams.ts';

/** How often a quiet stream gets a comment line, so proxies keep it open. */
const pingEveryMs = 15_000;

/** The response headers of a Server-Sent Events stream. */
export const sseHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

function uncork(socket: Socket): void {
  socket.uncork();
}

/**
 * Writes `text` to a streamed response; what is written in the same tick of the event loop
 * (the tokens of one network read from the model, an event and the next) leaves in one
 * system call: the first write corks the connection, the tick's end uncorks it. The socket
 * itself is corked, not the response: a response that ends in that tick lets go of its
 * socket, which must not stay corked for the next response on the connection. A response
 * that has ended takes nothing.
 */
export function writeInTick(response: ServerResponse, text: string): void {
  if (response.writableEnded) return;
  const socket = response.socket;
  if (socket !== null && socket.writableCorked === 0) {
    socket.cork();
    process.nextTick(uncork, socket);
  }
  response.write(text);
}

/**
 * Writes SSE events (with their ids) to a response whose headers were sent, with a
 * `: ping` comment when the stream is quiet. `close` ends it.
 */
export function sseWriter(response: ServerResponse) {
  const ping = setInterval(() => {
    if (!response.writableEnded) response.write(': ping\n\n');
  }, pingEveryMs);
  ping.unref();
  return {
    write(entry: StreamEvent): void {
      writeInTick(
        response,
        `id: ${entry.id}\nevent: ${entry.event}\ndata: ${JSON.stringify(entry.data)}\n\n`,
      );
    },
    close(): void {
      clearInterval(ping);
      if (!response.writableEnded) response.end();
    },
  };
}
