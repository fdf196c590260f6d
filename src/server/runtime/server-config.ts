import { resolve } from 'node:path';
import { type Environment, readEnvironment } from '../../config/index.ts';
import { type LimitSettings, readLimits } from '../../identity/index.ts';

/** Server settings read from the environment (`readEnvironment`), flags applied. */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  /** Requests waiting on one session beyond the running one before 409 (default 64). */
  sessionQueueLimit: number;
  /** Background runs going at once in this instance (`YEOUL_BACKGROUND_RUNS`). */
  backgroundRuns: number;
  /** Largest request body in bytes (default 1 MiB; 20 MiB for file uploads). */
  bodyLimit: number;
  /** Ingest the bundled sample documents on the first start (default true). */
  sampleKnowledge: boolean;
  /** Origins allowed by CORS (`YEOUL_CORS_ORIGINS`); empty = no CORS. */
  corsOrigins: string[];
  /** The server's address as clients reach it (`YEOUL_PUBLIC_URL`, no trailing slash); undefined = the request's `Host`. */
  publicUrl: string | undefined;
  /** `DATABASE_URL`: state in PostgreSQL, shared by every instance; undefined = embedded SQLite. */
  databaseUrl: string | undefined;
  /** Apply pending PostgreSQL migrations at start (default true; `yeoul serve --no-migrate`). */
  migrate: boolean;
  /** How long an instance (and its runs) counts as alive after its last heartbeat (`YEOUL_LEASE_MS`, default 30 s). */
  leaseMs: number;
  /** How much the agent graphs' runs pay for durability (`YEOUL_DURABILITY`: sync, async or exit; default sync). */
  durability: 'sync' | 'async' | 'exit';
  /** The chat agent's long-term memory (`YEOUL_LONG_TERM_MEMORY=off` turns it off; default on). */
  longTermMemory: boolean;
  /** Sessions idle this many days are deleted (`YEOUL_SESSION_TTL_DAYS`); undefined = kept. */
  sessionTtlDays: number | undefined;
  /** Per-owner limits of run requests and tokens (`YEOUL_REQUESTS_PER_MINUTE`, …); null = none. */
  limits: LimitSettings;
  /** Every variable as read (models, tools, knowledge, tracing…), for the parts that need them. */
  env: Environment;
}

/**
 * Reads the server configuration from the environment (every variable checked at once, an
 * empty value unset); `overrides` (from command-line flags) win over it.
 * @example
 * const config = readServerConfig(process.env, { port: 8080 });
 */
export function readServerConfig(
  env: Readonly<Record<string, string | undefined>>,
  overrides: Partial<
    Pick<ServerConfig, 'port' | 'host' | 'dataDir' | 'sampleKnowledge' | 'migrate'>
  > = {},
): ServerConfig {
  const environment = readEnvironment(env);
  return {
    port: overrides.port ?? environment.PORT,
    host: overrides.host ?? environment.HOST,
    dataDir: resolve(overrides.dataDir ?? environment.YEOUL_DATA_DIR),
    sessionQueueLimit: environment.YEOUL_SESSION_QUEUE_LIMIT,
    backgroundRuns: environment.YEOUL_BACKGROUND_RUNS,
    corsOrigins: (environment.YEOUL_CORS_ORIGINS ?? []).map((origin) => origin.replace(/\/+$/, '')),
    bodyLimit: environment.YEOUL_BODY_LIMIT,
    sampleKnowledge: overrides.sampleKnowledge ?? environment.YEOUL_SAMPLE_KNOWLEDGE,
    publicUrl: environment.YEOUL_PUBLIC_URL,
    databaseUrl: environment.DATABASE_URL,
    migrate: overrides.migrate ?? true,
    leaseMs: environment.YEOUL_LEASE_MS,
    durability: environment.YEOUL_DURABILITY,
    longTermMemory: environment.YEOUL_LONG_TERM_MEMORY,
    sessionTtlDays: environment.YEOUL_SESSION_TTL_DAYS,
    limits: readLimits(environment),
    env: environment,
  };
}
