export { type App, type AppBase, buildApp } from './build-app.ts';
export { envWithConfig } from './config-env.ts';
export { ConfigWatcher, type ConfigWatchHandlers } from './config-watcher.ts';
export { defineConfig } from './define-config.ts';
export { ConfigFileError } from './errors/config-file-error.ts';
export { configFileNames, findConfigFile } from './find-config-file.ts';
export { foldersOf, importFresh } from './import-fresh.ts';
export { loadConfigFile } from './load-config.ts';
export type {
  AgentSettings,
  BuiltinAgentName,
  KnowledgeSettings,
  LoadedConfig,
  ModelsSettings,
  ScorerLike,
  UserGraph,
  YeoulConfig,
} from './types.ts';
export {
  configPath,
  graphNamePattern,
  toolNamePattern,
  validateConfig,
} from './validate-config.ts';
