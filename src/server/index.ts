export { ConfigError, readServerConfig, type ServerConfig } from './config.ts';
export { createRuntime, type Runtime, sampleKnowledgeDir } from './create-runtime.ts';
export { errorResponse, HttpError } from './http-error.ts';
export { type RunningServer, startServer } from './start-server.ts';
