import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BulkItem } from './fake-opensearch/document-endpoints.ts';
import { FakeCluster } from './fake-opensearch/fake-cluster.ts';

/** A request the fake received (refused ones included), oldest first. */
export interface FakeOpenSearchRequest {
  method: string;
  /** The path without the query (`/yeoul-knowledge/_search`). */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON (undefined when empty). */
  json(): unknown;
  /** The body's NDJSON lines parsed (for `_bulk`). */
  lines(): unknown[];
}

/** How the fake cluster starts. */
export interface FakeOpenSearchOptions {
  /** Plugin components `_cat/plugins` lists (default `['opensearch-knn']`: no nori). */
  plugins?: string[];
  /** When set, every request needs these basic-auth credentials (401 otherwise). */
  auth?: { username: string; password: string };
}

/** A failure injected into `_bulk` items that match. */
export interface BulkItemFailure {
  match: (item: BulkItem) => boolean;
  /** Default 429 `es_rejected_execution_exception`. */
  status?: number;
  type?: string;
  reason?: string;
  /** How many matching items fail (default 1). */
  times?: number;
}

/** A fake one-node OpenSearch cluster on 127.0.0.1, speaking its REST wire format. */
export interface FakeOpenSearch {
  /** `http://127.0.0.1:PORT`, the same across stop and start. */
  url: string;
  /** Indexes, aliases, plugins and health, for assertions. */
  cluster: FakeCluster;
  requests: FakeOpenSearchRequest[];
  /** The health every index reports; red also fails searches (503) and bulk items (503). */
  setHealth(status: 'green' | 'yellow' | 'red'): void;
  /** Makes matching `_bulk` items fail with an OpenSearch error (the request itself succeeds). */
  failBulkItems(failure: BulkItemFailure): void;
  /** Takes the cluster down: the port refuses connections; the data is kept. */
  stop(): Promise<void>;
  /** Brings it up again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a fake OpenSearch: index creation with settings and mappings, aliases,
 * `_cat/plugins`, `_cluster/health`, `_bulk` (NDJSON, per-item results), `_search` (BM25
 * over the configured analyzer, exact k-NN), `_delete_by_query` and `_refresh`, with
 * OpenSearch's error bodies. Any other request shape is refused with a 400.
 * @example
 * const fake = await startFakeOpenSearch();
 * const env = { YEOUL_SEARCH_URL: `opensearch:${fake.url}` };
 * await fake.close();
 */
export async function startFakeOpenSearch(
  options: FakeOpenSearchOptions = {},
): Promise<FakeOpenSearch> {
  const cluster = new FakeCluster(options.plugins ?? ['opensearch-knn']);
  const requests: FakeOpenSearchRequest[] = [];
  const expectedAuth = options.auth
    ? `Basic ${Buffer.from(`${options.auth.username}:${options.auth.password}`).toString('base64')}`
    : undefined;
  let port = 0;
  let server: Server | undefined;
  const listen = async () => {
    const created = createServer((incoming, response) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
        const body = Buffer.concat(chunks).toString('utf8');
        requests.push({
          method: incoming.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers: incoming.headers,
          body,
          json: () => (body === '' ? undefined : JSON.parse(body)),
          lines: () =>
            body
              .split('\n')
              .filter(Boolean)
              .map((line) => JSON.parse(line)),
        });
        if (expectedAuth !== undefined && incoming.headers.authorization !== expectedAuth) {
          response.writeHead(401, {
            'content-type': 'text/plain; charset=UTF-8',
            'www-authenticate': 'Basic realm="OpenSearch Security"',
          });
          response.end('Unauthorized');
          return;
        }
        const reply = cluster.handle({
          method: incoming.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          body,
          contentType: String(incoming.headers['content-type'] ?? ''),
        });
        const text = reply.text ?? JSON.stringify(reply.json ?? {});
        const type =
          reply.text === undefined
            ? 'application/json; charset=UTF-8'
            : 'text/plain; charset=UTF-8';
        response.writeHead(reply.status, {
          'content-type': type,
          'content-length': Buffer.byteLength(text),
        });
        response.end(incoming.method === 'HEAD' ? undefined : text);
      });
    });
    await new Promise<void>((resolve, reject) => {
      created.once('error', reject);
      created.listen(port, '127.0.0.1', () => resolve());
    });
    port = (created.address() as AddressInfo).port;
    server = created;
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      const running = server;
      server = undefined;
      if (running === undefined) return resolve();
      running.closeAllConnections();
      running.close(() => resolve());
    });
  await listen();
  return {
    url: `http://127.0.0.1:${port}`,
    cluster,
    requests,
    setHealth(status) {
      cluster.health = status;
    },
    failBulkItems(failure) {
      cluster.itemFailures.push({
        match: failure.match,
        status: failure.status ?? 429,
        type: failure.type ?? 'es_rejected_execution_exception',
        reason: failure.reason ?? 'rejected execution of coordinating operation',
        remaining: failure.times ?? 1,
      });
    },
    stop,
    start: () => (server ? Promise.resolve() : listen()),
    close: stop,
  };
}
