import { createServer } from 'node:net';

/** A loopback port that was free a moment ago (taken on 127.0.0.1, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * `http://127.0.0.1:PORT` on a loopback port nothing listens on (taken, then released), for
 * tests of a back end that is down. (Fixed low ports such as 9 are refused by fetch itself.)
 */
export async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}
