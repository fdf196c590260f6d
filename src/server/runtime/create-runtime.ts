import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { createAgentRunner } from '../../agents/index.ts';
import {
  type App,
  buildApp,
  ConfigError,
  ConfigFileError,
  type LoadedConfig,
} from '../../config/index.ts';
import { yeoulVersion } from '../../core/index.ts';
import { type Checkpointer, SqliteCheckpointer } from '../../graph/index.ts';
import {
  createIdentityResolver,
  identitySettingsOf,
  ownWorkspaceFolder,
} from '../../identity/index.ts';
import {
  KnowledgeBase,
  resolveSearchBackend,
  SqliteDocumentStore,
  SqliteRetriever,
} from '../../knowledge/index.ts';
import {
  type McpClientLimits,
  McpClients,
  mcpToolPrefix,
  parseMcpConfig,
  readMcpConfig,
  splitToolPermissions,
} from '../../mcp/index.ts';
import {
  type MemoryStore,
  openPostgresMemoryStore,
  openSqliteMemoryStore,
} from '../../memory-store/index.ts';
import {
  chatModelFrom,
  readModelConfig,
  resolveEmbedder,
  resolveModel,
} from '../../models/index.ts';
import {
  createDefaultTools,
  createToolEnvironment,
  ensureDemoDatabase,
  ensureSampleLogs,
  type Permission,
  parseToolPermissions,
  resolveLogSource,
} from '../../tools/index.ts';
import { openPostgresStore, type PostgresStore } from '../scale-out/open-postgres-store.ts';
import { createLogger } from './create-logger.ts';
import { GuardrailReports } from './guardrail-reports.ts';
import type { ServerConfig } from './server-config.ts';
import { openSessionSideStores } from './session-side-stores.ts';
import { readTracingConfig } from './tracing-config.ts';

/** How long creating a runtime waits for MCP servers before it goes on without the slow ones. */
const mcpStartWaitMs = 10_000;

/** Where the bundled sample documents live (vacation policy, team budget, …). */
export const sampleKnowledgeDir = join(import.meta.dirname, '..', '..', '..', 'knowledge-samples');

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
    /**
     * The config file (yeoul.config.ts), loaded and checked: its tools, agents, graphs, MCP
     * servers and permissions. Its environment-like settings are in `config.env` already
     * (`envWithConfig`); where both set a value, the environment's wins.
     */
    userConfig?: LoadedConfig;
  } = {},
) {
  const logger = options.logger ?? createLogger({ LOG_LEVEL: 'silent' });
  const userConfig = options.userConfig?.config;
  mkdirSync(config.dataDir, { recursive: true });
  // A config model (or chain) holding AI SDK objects is no environment value: taken as is.
  const configModel = userConfig?.models?.default;
  const model =
    configModel !== undefined &&
    typeof configModel !== 'string' &&
    config.env.YEOUL_MODEL === undefined
      ? chatModelFrom(configModel, config.env, readModelConfig(config.env).settings)
      : resolveModel(readModelConfig(config.env));
  const embedder = resolveEmbedder(config.env);
  // python_repl's first call in a later run loads a kept snapshot: ~0.9 s instead of ~3.9 s.
  const tools = createDefaultTools({ pythonCacheDir: join(config.dataDir, 'cache') });
  const logs = resolveLogSource(config.env, { dataDir: config.dataDir });
  // YEOUL_MCP_CONFIG wins over the config file's mcpServers.
  const mcpConfig =
    config.env.YEOUL_MCP_CONFIG === undefined && userConfig?.mcpServers
      ? parseMcpConfig({ mcpServers: userConfig.mcpServers }, 'the config file’s mcpServers')
      : await readMcpConfig(config.env.YEOUL_MCP_CONFIG);
  const mcpServers = mcpConfig.ok ? mcpConfig.servers : [];
  // Permissions of MCP tools wait for their servers: those tools do not exist yet.
  const permissions = splitToolPermissions(
    config.env.YEOUL_TOOL_PERMISSIONS,
    mcpServers.map((server) => server.name),
  );
  const mcpPrefixes = mcpServers.map((server) => mcpToolPrefix(server.name));
  const mcpPermissions = new Map<string, Permission>([
    ...Object.entries(userConfig?.permissions ?? {}).filter(([name]) =>
      mcpPrefixes.some((prefix) => name.startsWith(prefix)),
    ),
    ...permissions.mcp,
  ]);
  const envPermissions = parseToolPermissions(permissions.builtin);
  const tracingConfig = readTracingConfig(config.env);
  const problems = [
    ...(mcpConfig.ok ? [] : mcpConfig.problems),
    ...permissions.problems,
    ...envPermissions.problems,
    ...(logs.ok ? [] : [logs.problem]),
    ...(tracingConfig.ok ? [] : tracingConfig.problems),
  ];
  if (problems.length > 0 || !logs.ok) {
    await tools.close();
    throw new ConfigError({ problems, environment: true });
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
    // An end user's file tools work in a folder of its own; keys and anonymous see it all.
    workspaceOf: (owner) => {
      const folder = ownWorkspaceFolder(owner);
      return folder === undefined
        ? join(config.dataDir, 'workspace')
        : join(config.dataDir, 'workspaces', folder);
    },
    keys: {
      ...(config.env.OPENWEATHER_API_KEY ? { openWeather: config.env.OPENWEATHER_API_KEY } : {}),
      ...(config.env.TAVILY_API_KEY ? { tavily: config.env.TAVILY_API_KEY } : {}),
    },
    knowledge,
    logs: logs.source,
    ...(config.env.YEOUL_PROMETHEUS_URL ? { prometheusUrl: config.env.YEOUL_PROMETHEUS_URL } : {}),
  });
  await ensureDemoDatabase(toolEnvironment.sqlDatabasePath);
  // Long-term memory: PostgreSQL with DATABASE_URL, else a SQLite file of its own (WAL, so a
  // `yeoul memory` command writes beside a running server; pruning threads never locks it).
  const memory: MemoryStore = postgres
    ? openPostgresMemoryStore(postgres.pool, { embedder })
    : openSqliteMemoryStore({ path: join(config.dataDir, 'memory.sqlite'), embedder });
  const baseDependencies = {
    model,
    tools: tools.registry,
    toolEnvironment,
    knowledge,
    ...(config.longTermMemory ? { longTermMemory: memory } : {}),
  };
  const { sessions, vaults, runs, evals, usage, schedules, webhooks, mcpSessions, responses } =
    openSessionSideStores(postgres, sqliteCheckpointer, checkpointer, config.limits, logger);
  const appBase = {
    deps: baseDependencies,
    checkpointer,
    env: config.env,
    logger,
    envPermissions: envPermissions.entries,
    mcpPrefixes,
    durability: config.durability,
    ...(config.env.YEOUL_GUARDRAILS === undefined
      ? {}
      : { envGuardrails: config.env.YEOUL_GUARDRAILS }),
  };
  /** Applies a config file (or none) to the server's parts; refuses one that cannot work. */
  const appOf = async (loaded: LoadedConfig | undefined): Promise<App> => {
    const built = await buildApp(loaded?.config, appBase);
    if (!built.ok) {
      // Without a config file the problems are the environment's (YEOUL_TOOL_PERMISSIONS).
      if (loaded === undefined)
        throw new ConfigError({ problems: built.problems, environment: true });
      throw new ConfigFileError({ file: loaded.path, problems: built.problems });
    }
    return built.app;
  };
  let app: App;
  try {
    app = await appOf(options.userConfig);
  } catch (error) {
    await tools.close();
    await checkpointer.close();
    await search.close();
    await postgres?.close();
    throw error;
  }
  const reports = new GuardrailReports(logger);
  const guardsOf = (built: App) => ({ suite: built.guardrails, vaults, observe: reports.observe });
  const runner = createAgentRunner(app.deps, checkpointer, {
    ...app.runner,
    guards: guardsOf(app),
    durability: config.durability,
    graphOfSession: (sessionId) => sessions.graphOf(sessionId),
    ownerOfSession: (sessionId) => sessions.ownerOf(sessionId),
    titleSession: (sessionId, message) => sessions.title(sessionId, message),
  });
  const { startWaitMs = mcpStartWaitMs, ...mcpLimits } = options.mcp ?? {};
  const mcp = new McpClients(runsAgents ? mcpServers : [], {
    registry: tools.registry,
    version: yeoulVersion,
    limits: mcpLimits,
    logger,
    permissionOverrides: mcpPermissions,
  });
  // Servers connect side by side; a slow one goes on starting after this, its tools joining later.
  await mcp.start(startWaitMs);
  let currentConfig = userConfig;
  let configFiles = options.userConfig?.files ?? [];
  // Who is calling: keys, tokens and the config's hook (read per request, so a reload applies).
  const identity = createIdentityResolver(identitySettingsOf(config.env, userConfig?.auth?.jwt), {
    hook: () => currentConfig?.auth?.authenticate,
    onJwksFailure: (problem) => logger.warn(problem),
  });
  let configState: ConfigState = {
    state: 'ok',
    loadedAt: (options.userConfig?.loadedAt ?? new Date()).toISOString(),
    ...(options.userConfig ? { file: options.userConfig.path } : {}),
  };
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
    /** What the config file (or none) made of the server's parts, as loaded now. */
    get app(): App {
      return app;
    },
    /** The tools requests are offered now: built-in, MCP and the config file's. */
    get registry() {
      return app.registry;
    },
    /** Every graph requests may run on now: the built-in agents and the config file's graphs. */
    get graphs() {
      return runner.graphs;
    },
    /** The config file's scorers (evaluations). */
    get scorers() {
      return currentConfig?.scorers ?? [];
    },
    /** The config file's state: `yeoul dev` reports a broken save here until it is fixed. */
    get configState(): ConfigState {
      return configState;
    },
    /**
     * Applies a new version of the config file (`yeoul dev`): requests from now on run on it,
     * runs going on finish on the version they started with. A version that cannot work is
     * refused (ConfigFileError) and the last good one keeps serving.
     */
    async reload(loaded: LoadedConfig): Promise<void> {
      const next = await appOf(loaded);
      app = next;
      currentConfig = loaded.config;
      configFiles = loaded.files;
      runner.reconfigure(next.deps, { ...next.runner, guards: guardsOf(next) });
      configState = { state: 'ok', loadedAt: loaded.loadedAt.toISOString(), file: loaded.path };
    },
    /** The local files the config file serving now imported (itself included), for `yeoul dev`. */
    get configFiles(): string[] {
      return configFiles;
    },
    /** Records a config version that could not be loaded (the last good one serves on). */
    reportConfigError(message: string): void {
      configState = { ...configState, state: 'error', error: message };
    },
    runner,
    sessions,
    /** Each session's placeholder vault (the real values behind `[EMAIL_1]`, …): never shown, deleted with the session. */
    vaults,
    /** Every run on a session: who started it, how it goes, how it ended (deleted with the session). */
    runs,
    /** Every guardrail action of the runs (logged; the metrics subscribe). */
    guardrailReports: reports,
    /** What runs are guarded with now: the config's guardrails, the vaults, the reports. */
    get guards() {
      return guardsOf(app);
    },
    /** Works out who is calling (keys, the config's hook, end-user tokens); `start` keeps a JWK Set fresh. */
    identity,
    /** Evaluation runs and answer ratings (yeoul eval, /api/evals, feedback). */
    evals,
    /** Per-owner limits and usage counts: run requests are admitted here, their runs' usage counted. */
    usage,
    /** Schedules of every owner, with their claimed slots (only `serve` and `dev` fire them). */
    schedules,
    /** The runs' webhook deliveries (the outbox `serve` and `dev` deliver from). */
    webhooks,
    /** The responses of `/v1/responses` and the conversations' metadata (deleted with the sessions). */
    responses,
    /** The webhook signing secret and host rule (`YEOUL_WEBHOOK_SECRET`, `YEOUL_WEBHOOK_HOSTS`). */
    webhookSettings: {
      secret: config.env.YEOUL_WEBHOOK_SECRET,
      hosts: config.env.YEOUL_WEBHOOK_HOSTS,
    },
    /** The long-term memory store of every owner (`forOwner` gives one owner's view). */
    memory,
    /** The MCP servers of YEOUL_MCP_CONFIG, whose tools join `tools.registry` while connected. */
    mcp,
    /** The sessions Yeoul's own MCP server handed out (`Mcp-Session-Id`), kept in the store. */
    mcpSessions,
    /** The search index's state, for the status endpoint (no request to a cluster). */
    searchHealth: () => search.health(),
    /** OpenTelemetry export, when OTEL_EXPORTER_OTLP_ENDPOINT is set. */
    tracing,
    /** What the first start ingested from the samples (undefined on later starts). */
    sampleIngested,
    async close() {
      identity.close();
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

/** The config file's state, as `GET /api/agent/status` shows it. */
export interface ConfigState {
  state: 'ok' | 'error';
  /** The last load's problems, while the file on disk cannot be used. */
  error?: string;
  /** When the version serving now was loaded (ISO time). */
  loadedAt: string;
  file?: string;
}

/** A running Yeoul: stores, model, tools, knowledge base and agents. */
export type Runtime = Awaited<ReturnType<typeof createRuntime>>;
