import { createServer } from 'node:net';

/**
 * `http://127.0.0.1:PORT` on a loopback port nothing listens on (taken, then released), for
 * tests of a back end that is down. (Fixed low ports such as 9 are refused by fetch itself.)
 */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
