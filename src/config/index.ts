export { type App, buildApp } from './build-app.ts';
export { envWithConfig } from './config-env.ts';
export { ConfigWatcher } from './config-watcher.ts';
export { defineConfig } from './define-config.ts';
export {
  type Environment,
  environmentSchema,
  readEnvironment,
} from './environment/read-environment.ts';
export type { TracingVariables } from './environment/tracing-variables.ts';
export { ConfigError } from './errors/config-error.ts';
export { ConfigFileError } from './errors/config-file-error.ts';
export { findConfigFile } from './find-config-file.ts';
export { loadConfigFile } from './load-config.ts';
export type {
  AgentSettings,
  LimitsSettings,
  LoadedConfig,
  ModelsSettings,
  UserGraph,
  YeoulConfig,
} from './types.ts';
export { validateConfig } from './validate-config.ts';
