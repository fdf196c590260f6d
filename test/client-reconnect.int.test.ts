import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type AgentEvent, YeoulClient } from '../src/client/index.ts';
import type { RunningServer } from '../src/server/index.ts';
import {
  type ChatCompletionRequest,
  type FakeCompletion,
  type FakeOpenAiServer,
  startCuttingProxy,
  startFakeOpenAiServer,
} from '../src/testing/internal/index.ts';
import { startTestServer } from '../src/testing/internal/test-server.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-client-reconnect-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A calculator call, then (after its result) an answer: two model calls, 300 ms each. */
function script(request: ChatCompletionRequest, index: number): FakeCompletion {
  if (request.body.messages.at(-1)?.role === 'tool') {
    return { kind: 'text', text: 'six times seven is 42, as the calculator says' };
  }
  return {
    kind: 'tool-calls',
    calls: [{ id: `calc-${index}`, name: 'calculator', arguments: '{"expression":"6 * 7"}' }],
  };
}

describe('YeoulClient.stream when the connection drops mid-run', () => {
  let model: FakeOpenAiServer;
  let server: RunningServer;
  before(async () => {
    model = await startFakeOpenAiServer(script, { delayMs: 300 });
    ({ server } = await startTestServer(mkdtempSync(join(root, 'data-')), {
      YEOUL_MODEL: 'compat:scripted',
      YEOUL_COMPAT_BASE_URL: model.baseUrl,
    }));
  });
  after(async () => {
    await server.close();
    await model.close();
  });

  it('rejoins with Last-Event-ID and yields every event once, in order, through done', async () => {
    const proxy = await startCuttingProxy(server.url, 2);
    const requests: Array<{ method: string; path: string; lastEventId: string | undefined }> = [];
    const client = new YeoulClient({
      baseUrl: proxy.url,
      reconnect: { delayMs: 50 },
      fetch: (input, init) => {
        const headers = (init?.headers ?? {}) as Record<string, string>;
        requests.push({
          method: init?.method ?? 'GET',
          path: new URL(String(input)).pathname,
          lastEventId: headers['last-event-id'],
        });
        return fetch(input, init);
      },
    });
    try {
      const events: AgentEvent[] = [];
      for await (const event of client.stream({ message: 'calculate 6 * 7' })) events.push(event);

      assert.equal(proxy.cuts(), 1, 'the proxy cut the first connection');
      const done = events.at(-1);
      assert.ok(done?.event === 'done');
      assert.equal(done.data.status, 'published');
      assert.deepEqual(done.data.toolsUsed, ['calculator']);
      assert.match(done.data.response, /42/);

      // One run, every event number once and in order: nothing lost, nothing repeated.
      const ids = events.map((event) => event.id ?? '');
      assert.equal(new Set(ids.map((id) => id.split(':')[0])).size, 1);
      const numbers = ids.map((id) => Number(id.split(':')[1]));
      assert.deepEqual(
        numbers,
        numbers.map((_, index) => (numbers[0] ?? 0) + index),
      );

      // The stream, then one rejoin of the same session after the last event it had.
      assert.equal(requests.length, 2);
      assert.deepEqual(requests[0], {
        method: 'POST',
        path: '/api/agent/stream',
        lastEventId: undefined,
      });
      const rejoin = requests[1];
      assert.equal(rejoin?.method, 'GET');
      assert.equal(rejoin?.path, `/api/sessions/${done.data.sessionId}/stream`);
      const resumedAt = ids.indexOf(rejoin?.lastEventId ?? '');
      assert.ok(resumedAt >= 1, 'the rejoin named an event the client had received');
      assert.ok(resumedAt < ids.length - 1, 'events came after the rejoin');
      // The run went on while the client was away: the model was asked twice, not again.
      assert.equal(model.requests.length, 2);
    } finally {
      await proxy.close();
    }
  });

  it('lets a second client join the running run and see the same events', async () => {
    const client = new YeoulClient({ baseUrl: server.url });
    const sessionId = 'joined-run';
    const first = client.stream({ message: 'calculate 6 * 7', sessionId });
    const own: AgentEvent[] = [];
    const step = await first.next();
    assert.ok(!step.done);
    own.push(step.value);
    const joined: AgentEvent[] = [];
    const joining = (async () => {
      for await (const event of client.sessions.join(sessionId)) joined.push(event);
    })();
    for await (const event of first) own.push(event);
    await joining;
    assert.equal(joined.at(-1)?.event, 'done');
    // Joined without Last-Event-ID: the run's events from its start, then live.
    assert.deepEqual(
      joined.map((event) => event.id),
      own.map((event) => event.id),
    );
  });

  it('cancels a running run: the stream ends with done, status cancelled', async () => {
    const client = new YeoulClient({ baseUrl: server.url });
    const sessionId = 'cancelled-run';
    const events: AgentEvent[] = [];
    for await (const event of client.stream({ message: 'calculate 6 * 7', sessionId })) {
      events.push(event);
      if (events.length === 1) await client.sessions.cancel(sessionId);
    }
    const done = events.at(-1);
    assert.ok(done?.event === 'done');
    assert.equal(done.data.status, 'cancelled');
  });
});
