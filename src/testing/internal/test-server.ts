import { envWithConfig, type YeoulConfig } from '../../config/index.ts';
import {
  createLogger,
  createRuntime,
  type RunningServer,
  type Runtime,
  readServerConfig,
  startServer,
} from '../../server/index.ts';

/** A Yeoul server started for a test, with its runtime and data folder. */
export interface TestServer {
  server: RunningServer;
  runtime: Runtime;
  dataDir: string;
}

/**
 * Starts a Yeoul server on a random port over `dataDir`, with `env` on top of the
 * defaults (and `options.config`, a config file's object, applied as `yeoul serve` applies one) and no request log — or, with `options.logLines`, every log line (debug and up) kept there: what the HTTP, `/v1`, MCP and browser tests talk to. The
 * caller closes `server` (imported directly, not through `index.ts`: it loads the server).
 * @example
 * const { server } = await startTestServer(mkdtempSync(join(root, 'data-')), { YEOUL_API_KEYS: 'k' });
 */
export async function startTestServer(
  dataDir: string,
  env: Record<string, string> = {},
  options: { config?: YeoulConfig; logLines?: string[] } = {},
): Promise<TestServer> {
  const { config, logLines } = options;
  const logger = logLines
    ? createLogger({ LOG_LEVEL: 'debug' }, { write: (line: string) => logLines.push(line) })
    : undefined;
  const runtime = await createRuntime(
    readServerConfig(envWithConfig({ YEOUL_DATA_DIR: dataDir, PORT: '0', ...env }, config)),
    {
      ...(config
        ? { userConfig: { path: 'the test’s config', config, files: [], loadedAt: new Date() } }
        : {}),
      ...(logger ? { logger } : {}),
    },
  );
  return { server: await startServer(runtime, { logger: logger ?? false }), runtime, dataDir };
}
