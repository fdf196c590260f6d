// The LangGraph Agent Server peer of `npm run bench:server`: @langchain/langgraph-api's
// `startServer`, the server `langgraph dev` runs (in memory, persisted to files under
// DATA_DIR/.langgraph_api), serving graph.mjs as the graph `agent`. Listens on an ephemeral
// port on 127.0.0.1 and prints `READY <url>`.
//
// Environment: MODEL_BASE_URL (ends in /v1), DATA_DIR (the server's working directory),
// LANGGRAPH_WORKERS (run workers in the process; default 100, one per bench connection).
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startServer } from '@langchain/langgraph-api/server';

const dataDir = process.env.DATA_DIR;
if (!process.env.MODEL_BASE_URL || !dataDir) {
  console.error('server.mjs: MODEL_BASE_URL and DATA_DIR must be set');
  process.exit(2);
}

// startServer needs a concrete port: ask the system for a free one.
const port = await new Promise((resolve, reject) => {
  const probe = createServer();
  probe.once('error', reject);
  probe.listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address();
    probe.close(() => resolve(free));
  });
});

const { cleanup } = await startServer({
  port,
  host: '127.0.0.1',
  nWorkers: Number(process.env.LANGGRAPH_WORKERS ?? 100),
  cwd: dataDir,
  graphs: { agent: `${join(import.meta.dirname, 'graph.mjs')}:graph` },
});
for (const signal of ['SIGTERM', 'SIGINT'])
  process.once(signal, () => cleanup().finally(() => process.exit(0)));
console.log(`READY http://127.0.0.1:${port}`);
