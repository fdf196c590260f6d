// The HTTP client of the peer comparison in `npm run bench:server`: node:http on keep-alive
// connections (at most `connections` sockets per server, as autocannon holds them), JSON in,
// the whole body out, and each chunk shown to `onChunk` as it arrives (for time to first token).
import { Agent, request } from 'node:http';

/** A keep-alive pool of at most `connections` sockets. */
export function connectionPool(connections: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
}

/** What one request answered. */
export interface HttpAnswer {
  status: number;
  body: string;
}

/** Sends `body` as JSON (GET when it is undefined) and collects the answer as text. */
export function sendJson(
  url: string,
  body: unknown,
  options: {
    agent: Agent;
    onChunk?: (text: string) => void;
    timeoutMs?: number;
    /** More request headers (credentials, say). */
    headers?: Record<string, string>;
  },
): Promise<HttpAnswer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: payload === undefined ? 'GET' : 'POST',
        agent: options.agent,
        headers: {
          ...options.headers,
          ...(payload === undefined
            ? {}
            : {
                'content-type': 'application/json',
                'content-length': Buffer.byteLength(payload),
              }),
        },
        timeout: options.timeoutMs ?? 60_000,
      },
      (response) => {
        response.setEncoding('utf8');
        let text = '';
        response.on('data', (chunk: string) => {
          text += chunk;
          options.onChunk?.(chunk);
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        response.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer from ${url} in time`)));
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/** Parses the body of a 2xx JSON answer; any other answer is an error naming its status. */
export function okJson<T>(answer: HttpAnswer, what: string): T {
  if (answer.status < 200 || answer.status > 299)
    throw new Error(`${what}: HTTP ${answer.status} ${answer.body.slice(0, 300)}`);
  return JSON.parse(answer.body) as T;
}

/** One server-sent event: its `event:` name (`message` when absent) and its `data:` text. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/** Splits server-sent events out of text arriving in chunks (keeps the unfinished tail). */
export function sseReader(onEvent: (event: ServerSentEvent) => void): (chunk: string) => void {
  let buffer = '';
  return (chunk) => {
    buffer += chunk;
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      if (data.length > 0) onEvent({ event, data: data.join('\n') });
      end = buffer.indexOf('\n\n');
    }
  };
}
