// The PostgreSQL part of `npm run bench:server`: Yeoul's invoke (offline model, calculator
// turn, a new session per request) on one instance, then on two instances sharing one
// database, at 100 connections in all. Reported without a target (this machine has 2 cores:
// the instances, the database and the load generator share them).
import { createDatabaseOn } from '../../src/testing/internal/index.ts';
import { openBenchPostgres } from './bench-postgres.ts';

/** What bench/server.ts lends: how it starts a server process and loads it. */
export interface ServerBenchTools {
  start(mode: string, env?: Record<string, string>): Promise<{ url: string; pid: number }>;
  load(
    name: string,
    url: string,
    connections: number,
    body?: unknown,
    pid?: number,
  ): Promise<{ requestsPerSecond: number; p50Ms: number; p99Ms: number; errors: number }>;
  log(...parts: unknown[]): void;
}

/**
 * One and two instances on PostgreSQL: on the server of `databaseUrl` (the user's
 * DATABASE_URL, given to these instances only), else on a throwaway durable server.
 */
export async function benchPostgresServer(
  tools: ServerBenchTools,
  body: unknown,
  databaseUrl: string | undefined,
) {
  const server = await openBenchPostgres(databaseUrl, tools.log);
  try {
    const env = { DATABASE_URL: await createDatabaseOn(server.url, 'yeoul_bench_server') };
    const first = await tools.start('yeoul', env);
    const one = await tools.load(
      'invoke on PostgreSQL, one instance',
      `${first.url}/api/agent/invoke`,
      100,
      body,
      first.pid,
    );
    const second = await tools.start('yeoul', env);
    const halves = await Promise.all(
      [first, second].map((instance, index) =>
        tools.load(
          `invoke on PostgreSQL, instance ${index + 1} of 2`,
          `${instance.url}/api/agent/invoke`,
          50,
          body,
          instance.pid,
        ),
      ),
    );
    const two = {
      connections: 100,
      requestsPerSecond: halves.reduce((sum, half) => sum + half.requestsPerSecond, 0),
      p50Ms: Math.max(...halves.map((half) => half.p50Ms)),
      p99Ms: Math.max(...halves.map((half) => half.p99Ms)),
      errors: halves.reduce((sum, half) => sum + half.errors, 0),
    };
    tools.log(
      `invoke on PostgreSQL, two instances @100: ${two.requestsPerSecond} req/s, p99 ${two.p99Ms} ms, errors ${two.errors}`,
    );
    return { oneInstanceAt100: one, twoInstancesAt100: two };
  } finally {
    await server.stop();
  }
}
