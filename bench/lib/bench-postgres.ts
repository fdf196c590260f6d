// What the PostgreSQL parts of bench/graph.ts and bench/server.ts share: the `--only postgres`
// switch, and the server they measure on.
import { startPostgresServer } from '../../src/testing/internal/index.ts';

/** `--only postgres` on the command line: run just the PostgreSQL part. */
export function onlyPostgres(argv: readonly string[] = process.argv): boolean {
  return argv.join(' ').includes('--only postgres');
}

/** The PostgreSQL server a bench measures on, and how to let it go. */
export interface BenchPostgres {
  url: string;
  /** Stops the throwaway server (a given one is left alone). */
  stop(): Promise<void>;
}

/**
 * The server of `databaseUrl` (the user's DATABASE_URL) when given; else a throwaway server
 * with durable settings (fsync, synchronous commit and full-page writes on).
 */
export async function openBenchPostgres(
  databaseUrl: string | undefined,
  log: (...parts: unknown[]) => void,
): Promise<BenchPostgres> {
  if (databaseUrl) return { url: databaseUrl, stop: async () => undefined };
  log('starting a throwaway PostgreSQL server (fsync and synchronous commit on)');
  const server = await startPostgresServer({
    settings: { fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on' },
  });
  return { url: server.url, stop: () => server.stop() };
}
