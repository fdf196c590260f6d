import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { connectionPool, type ServerSentEvent, sseReader } from '../bench/lib/http-client.ts';
import { yeoulClient } from '../bench/lib/peer-clients.ts';
import { processTreeRss } from '../bench/lib/process-tree-rss.ts';
import { runTurns } from '../bench/lib/turn-load.ts';
import { waitUntil } from '../src/testing/internal/index.ts';

describe('the peer comparison of bench:server', () => {
  it('reads server-sent events whose lines arrive split across chunks', () => {
    const events: ServerSentEvent[] = [];
    const read = sseReader((event) => events.push(event));
    for (const chunk of [
      'id: 1\nevent: tok',
      'en\ndata: {"text":',
      '"a"}\n\nda',
      'ta: b\n\n',
      ': ping\n\n',
    ])
      read(chunk);
    assert.deepEqual(events, [
      { event: 'token', data: '{"text":"a"}' },
      { event: 'message', data: 'b' },
    ]);
  });

  it('runs exactly the asked turns and counts a wrong answer or a throw as an error', async () => {
    let calls = 0;
    const summary = await runTurns({
      count: 12,
      connections: 4,
      expected: '56,088',
      maxSeconds: 30,
      turn: async () => {
        calls += 1;
        if (calls === 3) throw new Error('refused');
        return { answer: calls % 5 === 0 ? 'something else' : '= 56,088' };
      },
    });
    assert.equal(calls, 12);
    assert.equal(summary.requests, 12);
    assert.equal(summary.errors, 3); // the 3rd throws; the 5th and 10th answer wrong
    assert.equal(summary.firstError, 'refused');
    assert.ok(summary.requestsPerSecond > 0 && summary.p99Ms >= summary.p50Ms);
  });

  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('id: r:1\nevent: step\ndata: {"node":"llm","phase":"start"}\n\n');
    setTimeout(() => response.write('id: r:2\nevent: token\ndata: {"text":"56,088"}\n\n'), 60);
    setTimeout(
      () =>
        response.end('id: r:3\nevent: done\ndata: {"response":"= 56,088","sessionId":"s-1"}\n\n'),
      120,
    );
  });
  after(() => server.close());

  it("times a streamed turn's first answer token and reads its done event over HTTP", async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agent = connectionPool(1);
    const startedAt = performance.now();
    const outcome = await yeoulClient.stream(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      agent,
    );
    const elapsed = performance.now() - startedAt;
    agent.destroy();
    assert.equal(outcome.answer, '= 56,088');
    assert.equal(outcome.threadId, 's-1');
    // The token leaves 60 ms in, the end 120 ms in (later on a busy machine, in that order).
    const firstTokenMs = outcome.firstTokenMs ?? Number.NaN;
    assert.ok(firstTokenMs >= 55 && firstTokenMs <= elapsed, `first token ${firstTokenMs} ms`);
  });

  it('counts the resident size of child processes in the tree', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], {
      stdio: 'ignore',
    });
    try {
      // A node child takes a moment to load on a busy machine.
      await waitUntil(() => processTreeRss(child.pid as number) > 10e6, 'the child loaded');
      const childRss = processTreeRss(child.pid as number);
      assert.ok(childRss > 10e6, `child RSS ${childRss}`);
      assert.ok(processTreeRss(process.pid) >= process.memoryUsage().rss + childRss * 0.5);
    } finally {
      child.kill();
    }
  });
});
