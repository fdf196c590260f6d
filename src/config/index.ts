export { type App, type AppBase, buildApp } from './build-app.ts';
export { envWithConfig } from './config-env.ts';
export { ConfigWatcher, type ConfigWatchHandlers } from './config-watcher.ts';
export { defineConfig } from './define-config.ts';
export {
  type Environment,
  environmentSchema,
  readEnvironment,
} from './environment/read-environment.ts';
export type { TracingVariables } from './environment/tracing-variables.ts';
export { ConfigError } from './errors/config-error.ts';
export { ConfigFileError } from './errors/config-file-error.ts';
export { configFileNames, findConfigFile } from './find-config-file.ts';
export { importFresh } from './import-fresh.ts';
export { loadConfigFile } from './load-config.ts';
export type {
  AgentSettings,
  BuiltinAgentName,
  KnowledgeSettings,
  LoadedConfig,
  ModelsSettings,
  UserGraph,
  YeoulConfig,
} from './types.ts';
export {
  configPath,
  toolNamePattern,
  validateConfig,
} from './validate-config.ts';
