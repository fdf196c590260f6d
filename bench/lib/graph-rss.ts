// Child of bench/graph.ts (run with --expose-gc): invokes the chat-shaped graph on a
// SQLite file, each invoke on a new thread, and reports RSS after gc at each count.
// Usage: graph-rss.ts DB_FILE COUNT… ; prints one JSON line {rssAfter<COUNT>: bytes, …}.
import { SqliteCheckpointer } from '../../src/graph/index.ts';
import { buildChatFixtureGraph, chatFixtureInput } from '../../src/testing/internal/index.ts';

const [file, ...counts] = process.argv.slice(2) as [string, ...string[]];
const checkpoints = counts.map(Number).sort((a, b) => a - b);
const checkpointer = new SqliteCheckpointer({ path: file });
const graph = buildChatFixtureGraph({ checkpointer });
const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined) throw new Error('run with --expose-gc');

const result: Record<string, number> = {};
let done = 0;
for (const count of checkpoints) {
  for (; done < count; done += 1) {
    await graph.invoke(chatFixtureInput(done), { threadId: `rss-${done}` });
  }
  collect();
  await new Promise((resolve) => setImmediate(resolve));
  collect();
  result[`rssAfter${count}`] = process.memoryUsage().rss;
  result[`heapUsedAfter${count}`] = process.memoryUsage().heapUsed;
  console.error(
    `[yeoul] rss after ${count} invokes: ${(process.memoryUsage().rss / 1e6).toFixed(1)} MB`,
  );
}
await checkpointer.close();
console.log(JSON.stringify(result));
