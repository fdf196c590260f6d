import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import {
  ConfigFileError,
  envWithConfig,
  type LoadedConfig,
  validateConfig,
  type YeoulConfig,
} from '../config/index.ts';
import { createRuntime, readServerConfig, startServer } from '../server/index.ts';

/** A Yeoul server started for one test: its base URL, its data folder, and how to stop it. */
export interface ThrowawayServer {
  /** `http://127.0.0.1:<port>`, the base URL for `fetch` or `YeoulClient`. */
  url: string;
  /** The fresh data folder it stores everything in (removed by `close`). */
  dataDir: string;
  /** Stops the server and removes its data folder. */
  close(): Promise<void>;
}

/** What a throwaway server runs; nothing is read from `process.env` or a config file. */
export interface ThrowawayServerOptions {
  /** The project's config (what `yeoul.config.ts` default-exports), checked as a file's is. */
  config?: YeoulConfig;
  /**
   * The model of every agent whose config names none (e.g. `scriptedLanguageModel(…)`);
   * default: the config's `models.default`, else the offline model.
   */
  model?: LanguageModelV4;
  /**
   * Environment variables of the server (the README's "Environment" table). Keys set in
   * the test's own environment never reach it unless passed here. The bundled sample
   * documents are off unless `YEOUL_SAMPLE_KNOWLEDGE` (or the config) turns them on.
   */
  env?: Record<string, string>;
}

/**
 * Starts Yeoul on a free loopback port over a new temporary data folder, for a test.
 * @example
 * const model = scriptedLanguageModel([{ text: 'hello' }]);
 * const server = await startThrowawayServer({ config, model });
 * const status = await (await fetch(`${server.url}/api/agent/status`)).json();
 * await server.close();
 */
export async function startThrowawayServer(
  options: ThrowawayServerOptions = {},
): Promise<ThrowawayServer> {
  const userConfig = configWithModel(options);
  const problems = validateConfig(userConfig);
  if (problems.length > 0) throw new ConfigFileError({ file: 'the test config', problems });
  const loaded: LoadedConfig = {
    path: 'the test config',
    config: userConfig,
    files: [],
    loadedAt: new Date(),
  };
  const dataDir = await mkdtemp(join(tmpdir(), 'yeoul-test-'));
  try {
    const env = envWithConfig(
      {
        ...(userConfig.models?.default === undefined ? { YEOUL_MODEL: 'offline' } : {}),
        ...(userConfig.knowledge?.sampleDocuments === undefined
          ? { YEOUL_SAMPLE_KNOWLEDGE: 'false' }
          : {}),
        ...options.env,
        YEOUL_DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
      },
      userConfig,
    );
    const runtime = await createRuntime(readServerConfig(env), { userConfig: loaded });
    const server = await startServer(runtime, { logger: false }).catch(async (error) => {
      await runtime.close();
      throw error;
    });
    return {
      url: server.url,
      dataDir,
      async close() {
        await server.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** The config with `model` as its default model (agents that name their own keep it). */
function configWithModel(options: ThrowawayServerOptions): YeoulConfig {
  const config = options.config ?? {};
  if (options.model === undefined) return config;
  return { ...config, models: { ...config.models, default: options.model } };
}
