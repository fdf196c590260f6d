import type { Logger } from 'pino';
import { type EvalStore, PostgresEvalStore, SqliteEvalStore } from '../../evals/index.ts';
import type { Checkpointer, SqliteCheckpointer } from '../../graph/index.ts';
import { type LimitSettings, SqliteUsageStore, UsageMeter } from '../../identity/index.ts';
import {
  type McpSessionStore,
  PostgresMcpSessionStore,
  SqliteMcpSessionStore,
} from '../../mcp/index.ts';
import {
  PostgresScheduleStore,
  type ScheduleStore,
  SqliteScheduleStore,
} from '../../schedules/index.ts';
import {
  PostgresWebhookOutbox,
  SqliteWebhookOutbox,
  type WebhookOutbox,
} from '../../webhooks/index.ts';
import { PostgresResponseStore } from '../responses/postgres-response-store.ts';
import type { ResponseStore } from '../responses/response-store.ts';
import { SqliteResponseStore } from '../responses/sqlite-response-store.ts';
import type { RunStore } from '../runs/run-store.ts';
import { SqliteRunStore } from '../runs/sqlite-run-store.ts';
import type { PostgresStore } from '../scale-out/open-postgres-store.ts';
import type { GuardrailVaultStore } from '../sessions/guardrail-vault-store.ts';
import type { SessionStore } from '../sessions/session-store.ts';
import { SqliteGuardrailVaultStore } from '../sessions/sqlite-guardrail-vault-store.ts';
import { SqliteSessionStore } from '../sessions/sqlite-session-store.ts';
import { keepUnregisteredThreads } from '../sessions/unregistered-threads.ts';

/** The stores that live beside the sessions, in the checkpoints' database. */
export interface SessionSideStores {
  /** One registry of sessions for the API and the CLI. */
  sessions: SessionStore;
  /** The sessions' placeholder vaults (deleted with them). */
  vaults: GuardrailVaultStore;
  /** The runs of the sessions (deleted with them). */
  runs: RunStore;
  /** Evaluation runs and feedback. */
  evals: EvalStore;
  /** Usage counts and limits (the CLI's runs count into them too). */
  usage: UsageMeter;
  /** Schedules and their claimed slots (the CLI edits them beside a server). */
  schedules: ScheduleStore;
  /** The runs' webhook deliveries, stored before their first attempt (deleted with the runs). */
  webhooks: WebhookOutbox;
  /** The MCP sessions `initialize` handed out, accepted by every instance and after a restart. */
  mcpSessions: McpSessionStore;
  /** The responses of `/v1/responses` and the conversations' metadata (deleted with the sessions). */
  responses: ResponseStore;
}

/**
 * Opens the stores beside the sessions: PostgreSQL's with `DATABASE_URL`, else tables in
 * the SQLite checkpointer's database. Threads nobody registered stay the anonymous
 * owner's: no other owner can take one.
 */
export function openSessionSideStores(
  postgres: PostgresStore | undefined,
  sqlite: SqliteCheckpointer | undefined,
  checkpointer: Checkpointer,
  limits: LimitSettings,
  logger: Logger,
): SessionSideStores {
  const database = () => (sqlite as SqliteCheckpointer).database;
  return {
    sessions: keepUnregisteredThreads(
      postgres?.sessions ?? new SqliteSessionStore(database()),
      checkpointer,
    ),
    vaults: postgres?.vaults ?? new SqliteGuardrailVaultStore(database()),
    runs: postgres?.runs ?? new SqliteRunStore(database()),
    evals: postgres ? new PostgresEvalStore(postgres.pool) : new SqliteEvalStore(database()),
    usage: new UsageMeter(postgres?.usage ?? new SqliteUsageStore(database()), limits, {
      onError: (error) => logger.warn({ err: error }, 'a run’s usage could not be counted'),
    }),
    schedules: postgres
      ? new PostgresScheduleStore(postgres.pool)
      : new SqliteScheduleStore(database()),
    webhooks: postgres
      ? new PostgresWebhookOutbox(postgres.pool)
      : new SqliteWebhookOutbox(database()),
    mcpSessions: postgres
      ? new PostgresMcpSessionStore(postgres.pool)
      : new SqliteMcpSessionStore(database()),
    responses: postgres
      ? new PostgresResponseStore(postgres.pool)
      : new SqliteResponseStore(database()),
  };
}
