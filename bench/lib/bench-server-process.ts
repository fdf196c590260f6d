// Child of bench/server.ts: starts Yeoul's server (`yeoul`), a bare Fastify hello route
// (`hello`), or a fake OpenAI-compatible model answering after 300 ms (`fake-model`),
// on an ephemeral port, and prints `READY <url>`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { createRuntime, readServerConfig, startServer } from '../../src/server/index.ts';
import { startFakeOpenAiServer } from '../../src/testing/index.ts';

const mode = process.argv[2];
if (mode === 'hello') {
  const app = Fastify({ logger: false });
  app.get('/hello', async () => ({ hello: 'world' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  console.log(
    `READY http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
  );
} else if (mode === 'fake-model') {
  const words =
    '안녕하세요, 요청하신 내용을 정리해 드리겠습니다. 오늘 처리할 일은 세 가지입니다.'.split(
      /(?<=\s)/,
    );
  const fake = await startFakeOpenAiServer(
    [{ kind: 'text', text: words.join(''), chunks: words }],
    {
      delayMs: 300,
      keepRequests: false,
    },
  );
  console.log(`READY ${fake.baseUrl}`);
} else if (mode === 'yeoul') {
  const runtime = await createRuntime(
    readServerConfig({
      ...process.env,
      PORT: '0',
      YEOUL_DATA_DIR: mkdtempSync(join(tmpdir(), 'yeoul-bench-server-')),
      YEOUL_SAMPLE_KNOWLEDGE: 'false',
      YEOUL_SESSION_QUEUE_LIMIT: '1000',
    }),
  );
  const server = await startServer(runtime, { logger: false });
  await runtime.tools.registry.warmUp(['calculator']); // as `yeoul serve` does
  console.log(`READY ${server.url}`);
} else {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}
