import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, readServerConfig, startServer } from '../server/index.ts';

/** A Yeoul server started for one test: its base URL, its data folder, and how to stop it. */
export interface ThrowawayServer {
  /** `http://127.0.0.1:<port>`, the base URL for `fetch` or `YeoulClient`. */
  url: string;
  /** The fresh data folder it stores everything in (removed by `close`). */
  dataDir: string;
  /** Stops the server and removes its data folder. */
  close(): Promise<void>;
}

/** What a throwaway server runs on; nothing is read from `process.env`. */
export interface ThrowawayServerOptions {
  /**
   * Environment variables of the server (the README's "Environment" table), on top of
   * `YEOUL_MODEL=offline` and no bundled sample documents: keys set in the test's own
   * environment never reach it unless passed here.
   */
  env?: Record<string, string>;
}

/**
 * Starts Yeoul on a free loopback port over a new temporary data folder, for a test.
 * @example
 * const server = await startThrowawayServer();
 * const status = await (await fetch(`${server.url}/api/agent/status`)).json();
 * await server.close();
 */
export async function startThrowawayServer(
  options: ThrowawayServerOptions = {},
): Promise<ThrowawayServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'yeoul-test-'));
  try {
    const runtime = await createRuntime(
      readServerConfig({
        YEOUL_MODEL: 'offline',
        YEOUL_SAMPLE_KNOWLEDGE: 'false',
        ...options.env,
        YEOUL_DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
      }),
    );
    const server = await startServer(runtime, { logger: false }).catch(async (error) => {
      await runtime.close();
      throw error;
    });
    return {
      url: server.url,
      dataDir,
      async close() {
        await server.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
