import type { ServerResponse } from 'node:http';
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
      if (response.writableEnded) return;
      response.write(
        `id: ${entry.id}\nevent: ${entry.event}\ndata: ${JSON.stringify(entry.data)}\n\n`,
      );
    },
    close(): void {
      clearInterval(ping);
      if (!response.writableEnded) response.end();
    },
  };
}
