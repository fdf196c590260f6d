import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a fake server received, for tests to inspect. */
export interface RecordedRequest {
  method: string;
  /** The path without the query (`/v1/search`). */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  /** Settles when the connection closes; `complete` is false when the client left first (an abort). */
  closed: Promise<{ complete: boolean }>;
}

/** How a fake answers one request. */
export type FakeReply =
  | { kind: 'json'; status?: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'text'; status?: number; body: string; contentType?: string }
  /** A binary body (AWS event streams, …), sent as it is. */
  | { kind: 'bytes'; status?: number; body: Uint8Array; contentType: string }
  /** Declares a longer body than it sends, sends `body`, then drops the connection. */
  | { kind: 'truncated'; status?: number; body: string }
  /** Never answers, until the client gives up or the server closes. */
  | { kind: 'hang' };

/** Turns a recorded request into the reply a fake service would give. */
export type FakeHandler = (request: RecordedRequest) => FakeReply;

/** A local HTTP server on 127.0.0.1 and an ephemeral port, standing in for a public service. */
export interface FakeHttpServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  /** Every request received, oldest first. */
  requests: RecordedRequest[];
  /** Answers every later request with `reply` instead of the service's own; `undefined` restores it. */
  failWith(reply: FakeReply | undefined): void;
  close(): Promise<void>;
}

/**
 * Starts a fake HTTP service answering with `handler`.
 * @example
 * const fake = await startFakeHttpServer(() => ({ kind: 'json', body: { ok: true } }));
 * await fetch(fake.url); await fake.close();
 */
export async function startFakeHttpServer(handler: FakeHandler): Promise<FakeHttpServer> {
  const requests: RecordedRequest[] = [];
  let fault: FakeReply | undefined;
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
      const closed = new Promise<{ complete: boolean }>((resolve) => {
        response.on('close', () => resolve({ complete: response.writableFinished }));
      });
      const request: RecordedRequest = {
        method: incoming.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        closed,
      };
      requests.push(request);
      let reply: FakeReply;
      try {
        reply = fault ?? handler(request);
      } catch (error) {
        reply = { kind: 'text', status: 500, body: `fake handler failed: ${String(error)}` };
      }
      send(response, reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failWith(reply) {
      fault = reply;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(response: ServerResponse, reply: FakeReply): void {
  if (reply.kind === 'hang') return;
  const status = reply.status ?? 200;
  if (reply.kind === 'bytes') {
    response.writeHead(status, {
      'content-type': reply.contentType,
      'content-length': reply.body.byteLength,
    });
    response.end(reply.body);
    return;
  }
  if (reply.kind === 'json') {
    const text = JSON.stringify(reply.body);
    response.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      ...reply.headers,
    });
    response.end(text);
    return;
  }
  const contentType =
    reply.kind === 'text' ? (reply.contentType ?? 'text/plain') : 'application/json';
  const length = Buffer.byteLength(reply.body);
  response.writeHead(status, {
    'content-type': `${contentType}; charset=utf-8`,
    'content-length': reply.kind === 'truncated' ? length + 1000 : length,
  });
  if (reply.kind === 'text') {
    response.end(reply.body);
    return;
  }
  response.write(reply.body, () => response.socket?.destroy());
}
