import type { LoadedConfig } from '../config/index.ts';
import type { Runtime } from '../server/index.ts';

/** What a command may override in the configuration read from the environment. */
export interface RuntimeOverrides {
  dataDir?: string | undefined;
  /** `--config FILE` (else YEOUL_CONFIG, else yeoul.config.{ts,mjs,js} in the working directory). */
  config?: string | undefined;
  port?: number | undefined;
  host?: string | undefined;
  sampleKnowledge?: boolean | undefined;
  migrate?: boolean | undefined;
}

/** How a command wants its runtime: logging (the server), and whether it runs agents at all. */
export interface RuntimeOptions {
  log?: boolean;
  /** False: no MCP servers started, no tracing (search, ingest, listing sessions). */
  agents?: boolean;
}

/**
 * Reads the configuration (flags win over the environment) and wires a runtime. The
 * server folder (models, tools, agents, …) loads only here, so that `--help` and usage
 * errors answer at once.
 */
export async function openRuntime(
  env: Record<string, string | undefined>,
  overrides: RuntimeOverrides = {},
  options: RuntimeOptions = {},
): Promise<Runtime> {
  const { createLogger, createRuntime, readServerConfig } = await import('../server/index.ts');
  const { config: configFlag, ...settings } = overrides;
  const defined = Object.fromEntries(
    Object.entries(settings).filter(([, value]) => value !== undefined),
  );
  const userConfig = await loadUserConfig(env, configFlag);
  const { envWithConfig } = await import('../config/index.ts');
  const config = readServerConfig(envWithConfig(env, userConfig?.config), defined);
  // Only the server logs; the other commands keep their output for their answers.
  return createRuntime(config, {
    ...(options.log ? { logger: createLogger(config.env) } : {}),
    ...(options.agents === false ? { agents: false } : {}),
    ...(userConfig ? { userConfig } : {}),
  });
}

/**
 * The config file of the command line, loaded and checked (undefined without one). A file
 * that cannot be used stops the command with exit 2 and every problem on its own line.
 */
export async function loadUserConfig(
  env: Record<string, string | undefined>,
  flag: string | undefined,
): Promise<LoadedConfig | undefined> {
  const { findConfigFile, loadConfigFile, readEnvironment } = await import('../config/index.ts');
  // Every bad variable is reported here, before a config file is looked for.
  const path = findConfigFile({ cwd: process.cwd(), env: readEnvironment(env), flag });
  return path === undefined ? undefined : loadConfigFile(path);
}

/** Runs `work` on a fresh runtime and always closes it, so the process can exit promptly. */
export async function withRuntime<Result>(
  env: Record<string, string | undefined>,
  overrides: RuntimeOverrides,
  work: (runtime: Runtime) => Promise<Result>,
  options: RuntimeOptions = {},
): Promise<Result> {
  const runtime = await openRuntime(env, overrides, options);
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
  }
}
