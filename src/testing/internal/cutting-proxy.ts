import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** A proxy that cuts its first connection mid-answer: see `startCuttingProxy`. */
export interface CuttingProxy {
  /** Where to send requests instead of the server. */
  url: string;
  /** How many connections it has cut (0 or 1). */
  cuts(): number;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of the server that cuts its first connection (both ways) once the
 * answer has carried `events` SSE events: the connection drop a client sees when a network
 * or a load balancer fails mid-stream. Later connections pass untouched.
 * @example
 * const proxy = await startCuttingProxy(server.url, 2); // then a client on proxy.url
 */
export async function startCuttingProxy(url: string, events: number): Promise<CuttingProxy> {
  const target = new URL(url);
  let connections = 0;
  let cuts = 0;
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    connections += 1;
    open.add(client);
    client.on('close', () => open.delete(client));
    const first = connections === 1;
    const upstream = createConnection(Number(target.port), target.hostname);
    client.pipe(upstream);
    let seen = '';
    upstream.on('data', (chunk: Buffer) => {
      client.write(chunk);
      if (!first) return;
      seen += chunk.toString('utf8');
      if ((seen.match(/\nevent: /g) ?? []).length >= events) {
        cuts += 1;
        client.destroy();
        upstream.destroy();
      }
    });
    upstream.on('end', () => client.end());
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    cuts: () => cuts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The client's keep-alive connection would hold the close for seconds.
        for (const socket of open) socket.destroy();
      }),
  };
}
