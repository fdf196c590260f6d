import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { createAgentRunner } from '../agents/index.ts';
import { SqliteCheckpointer } from '../graph/index.ts';
import {
  KnowledgeBase,
  resolveSearchBackend,
  SqliteDocumentStore,
  SqliteRetriever,
} from '../knowledge/index.ts';
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
import { SessionRegistry, type SessionStore } from './session-registry.ts';

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
export async function createRuntime(config: ServerConfig, options: { logger?: Logger } = {}) {
  const logger = options.logger ?? createLogger({ LOG_LEVEL: 'silent' });
  mkdirSync(config.dataDir, { recursive: true });
  const model = resolveModel(readModelConfig(config.env));
  const embedder = resolveEmbedder(config.env);
  // python_repl's first call in a later run loads a kept snapshot: ~0.9 s instead of ~3.9 s.
  const tools = createDefaultTools({ pythonCacheDir: join(config.dataDir, 'cache') });
  const logs = resolveLogSource(config.env, { dataDir: config.dataDir });
  const problems = [
    ...applyToolPermissions(tools.registry, config.env.YEOUL_TOOL_PERMISSIONS),
    ...(logs.ok ? [] : [logs.problem]),
  ];
  if (problems.length > 0 || !logs.ok) {
    await tools.close();
    throw new ConfigError({ problems });
  }
  const knowledgePath = join(config.dataDir, 'knowledge.sqlite');
  const firstStart = !existsSync(knowledgePath);
  const search = await resolveSearchBackend(config.env, {
    embedder,
    openLocal: () =>
      new SqliteRetriever({ path: knowledgePath, ...(embedder ? { embedder } : {}) }),
    openStore: () => new SqliteDocumentStore({ path: knowledgePath }),
    onStateChange: (health) => logger.warn({ search: health }, 'knowledge search state changed'),
  });
  const knowledge = new KnowledgeBase(search.retriever);
  const checkpointer = new SqliteCheckpointer({ path: join(config.dataDir, 'threads.sqlite') });
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
  const runner = createAgentRunner(
    { model, tools: tools.registry, toolEnvironment, knowledge },
    checkpointer,
  );
  // One registry of sessions for the API and the CLI, in the checkpoints' database.
  const sessions: SessionStore = new SessionRegistry(checkpointer.database);
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
    tools,
    toolEnvironment,
    runner,
    sessions,
    /** The search index's state, for the status endpoint (no request to a cluster). */
    searchHealth: () => search.health(),
    /** What the first start ingested from the samples (undefined on later starts). */
    sampleIngested,
    async close() {
      await tools.close();
      await checkpointer.close();
      await search.close();
    },
  };
}

/** A running Yeoul: stores, model, tools, knowledge base and agents. */
export type Runtime = Awaited<ReturnType<typeof createRuntime>>;
