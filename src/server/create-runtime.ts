import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { createAgentRunner } from '../agents/index.ts';
import { yeoulVersion } from '../core/index.ts';
import { type Checkpointer, SqliteCheckpointer } from '../graph/index.ts';
import {
  KnowledgeBase,
  resolveSearchBackend,
  SqliteDocumentStore,
  SqliteRetriever,
} from '../knowledge/index.ts';
import {
  type McpClientLimits,
  McpClients,
  readMcpConfig,
  splitToolPermissions,
} from '../mcp/index.ts';
import {
  type MemoryStore,
  openPostgresMemoryStore,
  openSqliteMemoryStore,
} from '../memory-store/index.ts';
import { readModelConfig, resolveEmbedder, resolveModel } from '../models/index.ts';
import {
  applyToolPermissions,
  createDefaultTools,
  createToolEnvironment,
  ensureDemoDatabase,
  ensureSampleLogs,
  resolveLogSource,
} from '../tools/index.ts';
import { ConfigError, type ServerConfig } from './config.ts';
import { createLogger } from './create-logger.ts';
import { openPostgresStore, type PostgresStore } from './open-postgres-store.ts';
import { SessionRegistry, type SessionStore } from './session-registry.ts';
import { readTracingConfig } from './tracing-config.ts';

/** How long creating a runtime waits for MCP servers before it goes on without the slow ones. */
const mcpStartWaitMs = 10_000;

/** Where the bundled sample documents live (vacation policy, team budget, …). */
export const sampleKnowledgeDir = join(import.meta.dirname, '..', '..', 'knowledge-samples');

/**
 * Everything Yeoul runs on, wired from a configuration: the embedded stores under the
 * data folder, the model, the tools (with their permissions and log and metric back
 * ends), the knowledge base and its search index, the agent runner and the session
 * registry. The server and the CLI both start from here. A configuration that cannot work
 * is refused with every problem listed.
 * @example
 * const runtime = await createRuntime(readServerConfig(process.env));
 * const payload = await runtime.runner.invoke({ message: '안녕하세요' });
 * await runtime.close();
 */
export async function createRuntime(
  config: ServerConfig,
  options: {
    logger?: Logger;
    /** MCP client limits and how long to wait for servers at start (tests shorten them). */
    mcp?: Partial<McpClientLimits> & { startWaitMs?: number };
    /**
     * False for commands that never run an agent (search, ingest, sessions): the MCP
     * servers are not started and tracing is not set up — the configuration is still checked.
     */
    agents?: boolean;
  } = {},
) {
  const logger = options.logger ?? createLogger({ LOG_LEVEL: 'silent' });
  mkdirSync(config.dataDir, { recursive: true });
  const model = resolveModel(readModelConfig(config.env));
  const embedder = resolveEmbedder(config.env);
  // python_repl's first call in a later run loads a kept snapshot: ~0.9 s instead of ~3.9 s.
  const tools = createDefaultTools({ pythonCacheDir: join(config.dataDir, 'cache') });
  const logs = resolveLogSource(config.env, { dataDir: config.dataDir });
  const mcpConfig = await readMcpConfig(config.env.YEOUL_MCP_CONFIG);
  const mcpServers = mcpConfig.ok ? mcpConfig.servers : [];
  // Permissions of MCP tools wait for their servers: those tools do not exist yet.
  const permissions = splitToolPermissions(
    config.env.YEOUL_TOOL_PERMISSIONS,
    mcpServers.map((server) => server.name),
  );
  const tracingConfig = readTracingConfig(config.env);
  const problems = [
    ...(mcpConfig.ok ? [] : mcpConfig.problems),
    ...permissions.problems,
    ...applyToolPermissions(tools.registry, permissions.builtin),
    ...(logs.ok ? [] : [logs.problem]),
    ...(tracingConfig.ok ? [] : tracingConfig.problems),
  ];
  if (problems.length > 0 || !logs.ok) {
    await tools.close();
    throw new ConfigError({ problems });
  }
  // With DATABASE_URL every piece of shared state lives in PostgreSQL (see open-postgres-store.ts).
  let postgres: PostgresStore | undefined;
  try {
    postgres = config.databaseUrl
      ? await openPostgresStore(config, { embedder, logger })
      : undefined;
  } catch (error) {
    await tools.close();
    throw error;
  }
  // The OpenTelemetry SDK loads only when OTEL_EXPORTER_OTLP_ENDPOINT asks for traces.
  const runsAgents = options.agents !== false;
  const tracing =
    runsAgents && tracingConfig.ok && tracingConfig.config
      ? (await import('./tracing.ts')).startTracing(tracingConfig.config, { logger })
      : undefined;
  const knowledgePath = join(config.dataDir, 'knowledge.sqlite');
  const firstStart = postgres ? postgres.firstStart : !existsSync(knowledgePath);
  const search =
    postgres?.search ??
    (await resolveSearchBackend(config.env, {
      embedder,
      openLocal: () =>
        new SqliteRetriever({ path: knowledgePath, ...(embedder ? { embedder } : {}) }),
      openStore: () => new SqliteDocumentStore({ path: knowledgePath }),
      onStateChange: (health) => logger.warn({ search: health }, 'knowledge search state changed'),
    }));
  const knowledge = new KnowledgeBase(search.retriever);
  const sqliteCheckpointer = postgres
    ? undefined
    : new SqliteCheckpointer({
        path: join(config.dataDir, 'threads.sqlite'),
        leaseMs: config.leaseMs,
      });
  const checkpointer: Checkpointer = postgres?.checkpointer ?? (sqliteCheckpointer as Checkpointer);
  if (logs.sampleLogsDir) await ensureSampleLogs(logs.sampleLogsDir);
  const toolEnvironment = createToolEnvironment({
    dataDir: config.dataDir,
    keys: {
      ...(config.env.OPENWEATHER_API_KEY ? { openWeather: config.env.OPENWEATHER_API_KEY } : {}),
      ...(config.env.TAVILY_API_KEY ? { tavily: config.env.TAVILY_API_KEY } : {}),
    },
    knowledge,
    logs: logs.source,
    ...(config.env.YEOUL_PROMETHEUS_URL ? { prometheusUrl: config.env.YEOUL_PROMETHEUS_URL } : {}),
  });
  await ensureDemoDatabase(toolEnvironment.sqlDatabasePath);
  const { startWaitMs = mcpStartWaitMs, ...mcpLimits } = options.mcp ?? {};
  const mcp = new McpClients(runsAgents ? mcpServers : [], {
    registry: tools.registry,
    version: yeoulVersion,
    limits: mcpLimits,
    logger,
    permissionOverrides: permissions.mcp,
  });
  // Servers connect side by side; a slow one goes on starting after this, its tools joining later.
  await mcp.start(startWaitMs);
  // One registry of sessions for the API and the CLI, in the checkpoints' database.
  const sessions: SessionStore =
    postgres?.sessions ?? new SessionRegistry((sqliteCheckpointer as SqliteCheckpointer).database);
  // Long-term memory: PostgreSQL with DATABASE_URL, else a SQLite file of its own (WAL, so a
  // `yeoul memory` command writes beside a running server; pruning threads never locks it).
  const memory: MemoryStore = postgres
    ? openPostgresMemoryStore(postgres.pool, { embedder })
    : openSqliteMemoryStore({ path: join(config.dataDir, 'memory.sqlite'), embedder });
  const agentDependencies = {
    model,
    tools: tools.registry,
    toolEnvironment,
    knowledge,
    ...(config.longTermMemory ? { longTermMemory: memory } : {}),
  };
  const runner = createAgentRunner(agentDependencies, checkpointer);
  const sampleIngested =
    firstStart && config.sampleKnowledge
      ? await knowledge.ingestPaths([sampleKnowledgeDir])
      : undefined;
  return {
    config,
    logger,
    model,
    embedder,
    knowledge,
    checkpointer,
    /** Where state lives: the embedded SQLite files, or PostgreSQL (pool and lease for the server's shared queue). */
    store: postgres
      ? { backend: 'postgres' as const, pool: postgres.pool, leaseMs: config.leaseMs }
      : { backend: 'sqlite' as const },
    tools,
    toolEnvironment,
    /** What the agent graphs run on, for runners beside `runner` (`/v1`'s stateless one). */
    agentDependencies,
    runner,
    sessions,
    /** The long-term memory store of every owner (`forOwner` gives one owner's view). */
    memory,
    /** The MCP servers of YEOUL_MCP_CONFIG, whose tools join `tools.registry` while connected. */
    mcp,
    /** The search index's state, for the status endpoint (no request to a cluster). */
    searchHealth: () => search.health(),
    /** OpenTelemetry export, when OTEL_EXPORTER_OTLP_ENDPOINT is set. */
    tracing,
    /** What the first start ingested from the samples (undefined on later starts). */
    sampleIngested,
    async close() {
      await mcp.close();
      await tools.close();
      await checkpointer.close();
      await memory.close();
      await search.close();
      await postgres?.close();
      await tracing?.shutdown(); // last: the spans of the shutdown itself go out too
    },
  };
}

/** A running Yeoul: stores, model, tools, knowledge base and agents. */
export type Runtime = Awaited<ReturnType<typeof createRuntime>>;
