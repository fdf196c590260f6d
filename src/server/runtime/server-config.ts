import { resolve } from 'node:path';
import { z } from 'zod';
import { YeoulError } from '../../core/index.ts';

/** Server settings read from the environment (every variable: docs/reference/environment.md). */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  /** Bearer keys; empty = no auth, and the server refuses to listen beyond loopback. */
  apiKeys: string[];
  /** Requests waiting on one session beyond the running one before 409 (default 64). */
  sessionQueueLimit: number;
  /** Largest request body in bytes (default 1 MiB; 20 MiB for file uploads). */
  bodyLimit: number;
  /** Ingest the bundled sample documents on the first start (default true). */
  sampleKnowledge: boolean;
  /** Origins allowed by CORS (`YEOUL_CORS_ORIGINS`); empty = no CORS. */
  corsOrigins: string[];
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
  /** Everything else (model and tool keys) is read from here by the parts that need it. */
  env: Record<string, string | undefined>;
}

/** The configuration could not be read; every problem is listed. */
export class ConfigError extends YeoulError {
  readonly problems: string[];

  constructor(fields: { problems: string[] }) {
    super('config_invalid', `The configuration is not valid: ${fields.problems.join('; ')}`);
    this.problems = fields.problems;
  }
}

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(8787),
  HOST: z.string().min(1).default('127.0.0.1'),
  YEOUL_DATA_DIR: z.string().min(1).default('./data'),
  YEOUL_API_KEYS: z.string().optional(),
  YEOUL_SESSION_QUEUE_LIMIT: z.coerce.number().int().min(0).max(1000).default(64),
  YEOUL_BODY_LIMIT: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  YEOUL_SAMPLE_KNOWLEDGE: z.enum(['true', 'false', '1', '0']).default('true'),
  YEOUL_CORS_ORIGINS: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(?:ql)?:\/\//, 'must be a postgres:// (or postgresql://) URL')
    .optional(),
  YEOUL_SEARCH_URL: z.string().optional(),
  YEOUL_LEASE_MS: z.coerce.number().int().min(500).max(3_600_000).default(30_000),
  YEOUL_DURABILITY: z.enum(['sync', 'async', 'exit']).default('sync'),
  YEOUL_LONG_TERM_MEMORY: z.enum(['on', 'off']).default('on'),
  YEOUL_SESSION_TTL_DAYS: z
    .string()
    .regex(/^\s*[1-9]\d{0,5}\s*$/, 'must be a positive whole number of days (e.g. 30)')
    .optional(),
});

/** Reads the server configuration; `overrides` (from command-line flags) win over the environment. */
export function readServerConfig(
  env: Record<string, string | undefined>,
  overrides: Partial<
    Pick<ServerConfig, 'port' | 'host' | 'dataDir' | 'sampleKnowledge' | 'migrate'>
  > = {},
): ServerConfig {
  const parsed = schema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')),
  );
  if (!parsed.success) {
    throw new ConfigError({
      problems: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    });
  }
  const values = parsed.data;
  return {
    port: overrides.port ?? values.PORT,
    host: overrides.host ?? values.HOST,
    dataDir: resolve(overrides.dataDir ?? values.YEOUL_DATA_DIR),
    apiKeys: (values.YEOUL_API_KEYS ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter(Boolean),
    sessionQueueLimit: values.YEOUL_SESSION_QUEUE_LIMIT,
    corsOrigins: (values.YEOUL_CORS_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    bodyLimit: values.YEOUL_BODY_LIMIT,
    sampleKnowledge:
      overrides.sampleKnowledge ?? ['true', '1'].includes(values.YEOUL_SAMPLE_KNOWLEDGE),
    databaseUrl: values.DATABASE_URL,
    migrate: overrides.migrate ?? true,
    leaseMs: values.YEOUL_LEASE_MS,
    durability: values.YEOUL_DURABILITY,
    longTermMemory: values.YEOUL_LONG_TERM_MEMORY === 'on',
    sessionTtlDays:
      values.YEOUL_SESSION_TTL_DAYS === undefined
        ? undefined
        : Number(values.YEOUL_SESSION_TTL_DAYS),
    env,
  };
}
