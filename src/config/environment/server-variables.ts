import { z } from 'zod';
import { environmentVariable, oneOf, wholeNumber, yesNo } from '../../core/index.ts';

/** A comma-separated list, read as its trimmed, non-empty entries. */
function commaList() {
  return z.string().transform((text) =>
    text
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  );
}

/**
 * The variables of the process as a whole, which the server and the command line both read:
 * where it listens and keeps its data, its store, durability and logging.
 */
export const serverVariables = z.object({
  PORT: environmentVariable(wholeNumber({ min: 0, max: 65_535 }).default(8787), {
    meaning: 'listen port (`0` picks a free one; `--port` wins)',
  }),
  HOST: environmentVariable(z.string().default('127.0.0.1'), {
    meaning: 'listen address (`--host` wins)',
  }),
  YEOUL_DATA_DIR: environmentVariable(z.string().default('./data'), {
    meaning: 'embedded store (SQLite) and workspace (`--data` wins)',
  }),
  YEOUL_CONFIG: environmentVariable(z.string().optional(), {
    meaning: 'the config file (`--config` wins)',
    default: '`yeoul.config.{ts,mjs,js}` in the working directory, if any',
  }),
  YEOUL_CORS_ORIGINS: environmentVariable(commaList().optional(), {
    meaning: 'comma-separated origins allowed by CORS',
    default: 'unset = no CORS',
  }),
  YEOUL_PUBLIC_URL: environmentVariable(
    z
      .string()
      .regex(/^https?:\/\/[^/\s]+/i, 'must be an absolute http:// or https:// URL')
      .refine((text) => URL.canParse(text), 'must be an absolute http:// or https:// URL')
      .transform((text) => text.replace(/\/+$/, ''))
      .optional(),
    {
      meaning:
        'the server’s address as clients reach it (behind a proxy): the base of the URLs in A2A agent cards',
      default: 'unset = `http://` + the request’s `Host`',
    },
  ),
  YEOUL_BODY_LIMIT: environmentVariable(
    wholeNumber({ min: 1024, unit: 'bytes' }).default(1024 * 1024),
    { meaning: 'largest JSON body in bytes (document uploads have their own, larger limit)' },
  ),
  YEOUL_SESSION_QUEUE_LIMIT: environmentVariable(wholeNumber({ min: 0, max: 1000 }).default(64), {
    meaning: 'requests that may wait on one session behind the running one',
  }),
  YEOUL_BACKGROUND_RUNS: environmentVariable(wholeNumber({ min: 1, max: 10_000 }).default(32), {
    meaning:
      'background runs (`POST /api/runs`, schedules) going at once in one instance; the rest wait `queued`, first come first served',
  }),
  YEOUL_SAMPLE_KNOWLEDGE: environmentVariable(yesNo().default(true), {
    meaning:
      '`false` (or `0`) leaves the bundled sample documents out of the first start (`--no-sample` too)',
    default: '`true`',
  }),
  DATABASE_URL: environmentVariable(
    z
      .string()
      .regex(/^postgres(?:ql)?:\/\//, 'must be a postgres:// (or postgresql://) URL')
      .optional(),
    {
      meaning:
        '`postgres://…`: sessions, checkpoints, approvals, documents and the search index live in PostgreSQL, shared by any number of `yeoul serve` instances',
      default: 'unset = embedded SQLite',
    },
  ),
  YEOUL_LEASE_MS: environmentVariable(
    wholeNumber({ min: 500, max: 3_600_000, unit: 'milliseconds' }).default(30_000),
    {
      meaning:
        'with `DATABASE_URL`: how long an instance (and its runs) counts as alive after its last heartbeat, in ms',
    },
  ),
  YEOUL_DURABILITY: environmentVariable(oneOf(['sync', 'async', 'exit']).default('sync'), {
    meaning: 'the server’s graph durability mode: `sync`, `async`, `exit`',
  }),
  YEOUL_LONG_TERM_MEMORY: environmentVariable(
    oneOf(['on', 'off'])
      .transform((value) => value === 'on')
      .default(true),
    { meaning: '`off` turns long-term memory off', default: 'on' },
  ),
  YEOUL_SESSION_TTL_DAYS: environmentVariable(
    wholeNumber({ min: 1, max: 999_999, unit: 'days' }).optional(),
    { meaning: 'sessions idle this many days are deleted', default: 'unset = kept' },
  ),
  LOG_LEVEL: environmentVariable(
    oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
    {
      meaning:
        'pino level (`debug`, `info`, `warn`, …); pretty lines on a terminal, JSON lines otherwise',
      default: '`info`',
    },
  ),
  NODE_OPTIONS: environmentVariable(z.string().optional(), {
    meaning:
      'Node’s own options; a `--heap-growing-percent` there wins over the one `yeoul serve` sets',
  }),
});

/** The process's variables as read: trimmed, an empty value unset, defaults applied. */
export type ServerVariables = z.output<typeof serverVariables>;
