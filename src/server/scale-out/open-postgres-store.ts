import type { Logger } from 'pino';
import { ConfigError } from '../../config/index.ts';
import {
  applyMigrations,
  createPostgresPool,
  describePostgresTarget,
  migrationStatus,
  type PostgresPool,
} from '../../core/index.ts';
import { PostgresCheckpointer } from '../../graph/index.ts';
import { PostgresUsageStore } from '../../identity/index.ts';
import {
  PostgresDocumentStore,
  PostgresRetriever,
  resolveSearchBackend,
  type SearchBackend,
} from '../../knowledge/index.ts';
import type { Embedder } from '../../models/index.ts';
import { PostgresRunStore } from '../runs/postgres-run-store.ts';
import type { ServerConfig } from '../runtime/server-config.ts';
import { PostgresGuardrailVaultStore } from '../sessions/postgres-guardrail-vault-store.ts';
import { PostgresSessionStore } from '../sessions/postgres-session-store.ts';
import { storeMigrations } from './server-migrations.ts';

/** The knowledge base's first migration: applying it means the database was empty. */
const knowledgeBaseVersion = 100;

/** Yeoul's state in PostgreSQL, as `createRuntime` wires it. */
export interface PostgresStore {
  pool: PostgresPool;
  checkpointer: PostgresCheckpointer;
  sessions: PostgresSessionStore;
  /** The sessions' placeholder vaults, restored through any instance. */
  vaults: PostgresGuardrailVaultStore;
  /** The runs of every session, seen from any instance. */
  runs: PostgresRunStore;
  /** Per-owner usage counts, exact across instances. */
  usage: PostgresUsageStore;
  search: SearchBackend;
  /** Whether this start created the schema (the sample documents go in then). */
  firstStart: boolean;
  close(): Promise<void>;
}

/**
 * Opens `DATABASE_URL`: a pool, the schema brought up to date (or checked, with
 * `migrate: false`: a database that lacks migrations is refused, naming `yeoul migrate`), the
 * checkpointer (with its heartbeat), the knowledge base's retriever (the database's own index,
 * or OpenSearch's with `YEOUL_SEARCH_URL`, the documents staying here), the session registry,
 * the sessions' placeholder vaults, the runs and the usage counts.
 * An unreachable database fails with `store_unavailable`.
 */
export async function openPostgresStore(
  config: ServerConfig,
  options: { embedder?: Embedder | undefined; logger: Logger },
): Promise<PostgresStore> {
  const url = config.databaseUrl as string;
  const pool = await createPostgresPool({
    url,
    onConnectionError: (error) =>
      options.logger.warn({ err: error }, 'a PostgreSQL connection broke; it will be replaced'),
  });
  try {
    const migrations = storeMigrations();
    let firstStart = false;
    if (config.migrate) {
      const applied = await applyMigrations(pool, migrations);
      firstStart = applied.some((migration) => migration.version === knowledgeBaseVersion);
      if (applied.length > 0) {
        options.logger.info(
          { migrations: applied.map((migration) => `${migration.version} ${migration.name}`) },
          'applied PostgreSQL migrations',
        );
      }
    } else {
      const missing = (await migrationStatus(pool, migrations)).filter(
        (entry) => entry.state === 'pending' || entry.state === 'changed',
      );
      if (missing.length > 0) {
        throw new ConfigError({
          problems: [
            `the database at ${describePostgresTarget(url)} is not up to date (${missing
              .map((entry) => `${entry.version} ${entry.name}: ${entry.state}`)
              .join(', ')}); run "yeoul migrate", or start without --no-migrate`,
          ],
        });
      }
    }
    // YEOUL_SEARCH_URL set: documents stay here, the index lives in OpenSearch (kept up to
    // date through the store's outbox, drained by every instance); unset: the database's own.
    const search = await resolveSearchBackend(config.env, {
      embedder: options.embedder,
      localBackend: 'postgres',
      openLocal: () =>
        new PostgresRetriever(pool, options.embedder ? { embedder: options.embedder } : {}),
      openStore: () => new PostgresDocumentStore(pool),
      onStateChange: (health) =>
        options.logger.warn({ search: health }, 'knowledge search state changed'),
    });
    const checkpointer = await PostgresCheckpointer.open(pool, { leaseMs: config.leaseMs }).catch(
      async (error: unknown) => {
        await search.close();
        throw error;
      },
    );
    return {
      pool,
      checkpointer,
      sessions: new PostgresSessionStore(pool),
      vaults: new PostgresGuardrailVaultStore(pool),
      runs: new PostgresRunStore(pool),
      usage: new PostgresUsageStore(pool),
      search,
      firstStart,
      async close() {
        await checkpointer.close();
        await pool.end();
      },
    };
  } catch (error) {
    await pool.end();
    throw error;
  }
}
