// Child of bench/server.ts: starts Yeoul's server (`yeoul`), a bare Fastify hello route
// (`hello`), a bare Fastify route making only the durable writes of one Yeoul turn
// (`durable-floor <message>`), or a fake OpenAI-compatible model answering after 300 ms
// (`fake-model [delayMs]`, another wait when given), or the scripted model every server of the peer comparison talks to
// (`scripted-model [delayMs]`: a calculator call, then the answer once the tool's result is
// in), on an ephemeral port, and prints `READY <url>`. Yeoul is on SQLite unless
// the parent gives this child DATABASE_URL (only bench/lib/postgres-server-load.ts does).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { createId } from '../../src/core/index.ts';
import {
  createRuntime,
  readServerConfig,
  restartWithServerMalloc,
  startServer,
  tuneServerHeap,
} from '../../src/server/index.ts';
// The fake model's own module, not the testing index: that would load the test-only helpers
// (PostgreSQL, MCP and browser fixtures) into every process, Yeoul's among them.
import { startFakeOpenAiServer } from '../../src/testing/internal/fake-openai-server.ts';
import { calculatorTurn } from './calculator-turn.ts';

const mode = process.argv[2];
// Each Yeoul gets a data folder of its own, removed as the process ends (the parent stops it
// with SIGTERM; an orderly exit also lets `--cpu-prof` write its profile).
const dataDirs: string[] = [];
process.once('SIGTERM', () => process.exit(0));
process.on('exit', () => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'yeoul-bench-server-'));
  dataDirs.push(dir);
  return dir;
};
const runtime = () =>
  createRuntime(
    readServerConfig({
      ...process.env,
      PORT: '0',
      YEOUL_DATA_DIR: dataDir(),
      YEOUL_SAMPLE_KNOWLEDGE: 'false',
      YEOUL_SESSION_QUEUE_LIMIT: '1000',
    }),
  );

async function listen(app: ReturnType<typeof Fastify>): Promise<void> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  console.log(
    `READY http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
  );
}

if (mode === 'hello') {
  const app = Fastify({ logger: false });
  app.get('/hello', async () => ({ hello: 'world' }));
  await listen(app);
} else if (mode === 'durable-floor') {
  // What a checkpoint after every step costs on its own: one real turn on the
  // message is run once, and each request then claims a new session, reads its thread
  // and appends that turn's checkpoint entries again, each awaited as the graph awaits
  // it, through the same SQLite checkpointer and group commit. No routing, model or tool.
  const yeoul = await runtime();
  const sample = await yeoul.runner.invoke({ message: process.argv[3] ?? '안녕하세요' });
  const { entries } = await yeoul.checkpointer.read(sample.sessionId);
  const app = Fastify({ logger: false });
  app.post('/turn', async (request) => {
    const sessionId = createId();
    const runId = createId();
    await yeoul.sessions.claim(sessionId, 'anonymous', 'turn');
    await yeoul.checkpointer.read(sessionId);
    for (const entry of entries)
      await yeoul.checkpointer.append({
        ...entry,
        threadId: sessionId,
        runId,
        createdAt: Date.now(),
      });
    return { sessionId, message: (request.body as { message?: string }).message };
  });
  await listen(app);
} else if (mode === 'fake-model') {
  const words =
    '안녕하세요, 요청하신 내용을 정리해 드리겠습니다. 오늘 처리할 일은 세 가지입니다.'.split(
      /(?<=\s)/,
    );
  const fake = await startFakeOpenAiServer(
    [{ kind: 'text', text: words.join(''), chunks: words }],
    {
      delayMs: Number(process.argv[3] ?? 300),
      keepRequests: false,
    },
  );
  console.log(`READY ${fake.baseUrl}`);
} else if (mode === 'scripted-model') {
  const fake = await startFakeOpenAiServer(calculatorTurn, {
    delayMs: Number(process.argv[3] ?? 0),
    keepRequests: false,
    // As a hosted model API does: an idle connection is not closed under a client that is
    // about to reuse it (Node's 5 s default made Mastra's model calls fail on a busy machine).
    keepAliveTimeoutMs: 120_000,
  });
  console.log(`READY ${fake.baseUrl}`);
} else if (mode === 'yeoul') {
  restartWithServerMalloc(); // as `yeoul serve` does (the process starts again in place)
  const yeoul = await runtime();
  tuneServerHeap(yeoul.config.env.NODE_OPTIONS); // as `yeoul serve` does
  const server = await startServer(yeoul, { logger: false });
  console.log(`READY ${server.url}`);
} else {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}
