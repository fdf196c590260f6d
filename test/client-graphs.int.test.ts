import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { z } from 'zod';
import { type GraphEvent, YeoulApiError, YeoulClient } from '../src/client/index.ts';
import {
  graphListSchema,
  graphRunResponseSchema,
  graphStreamEventSchemas,
} from '../src/protocol/index.ts';
import {
  makeConfigProject,
  type ServeProcess,
  schemaDrift,
  startCuttingProxy,
  startServeProcess,
  yeoulDoor,
} from '../src/testing/internal/index.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-client-graphs-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A counter, a graph that asks a question before it finishes, and a slow two-step one. */
const configText = `
import { defineConfig } from '${yeoulDoor('config')}';
import { END, START, StateGraph, append, defineState, increment, interrupt, replace } from '${yeoulDoor('graph')}';

export default defineConfig({
  graphs: {
    counter: new StateGraph(defineState({ count: increment(), note: replace('') }))
      .addNode('bump', (state) => ({ count: 1, note: 'was ' + state.count }))
      .addEdge(START, 'bump')
      .addEdge('bump', END),
    asker: new StateGraph(defineState({ topic: replace(''), answer: replace('') }))
      .addNode('ask', (state, context) => {
        const answer = Object.values(context.resume?.answers ?? {})[0];
        if (answer === undefined) return interrupt([{ key: 'q', value: { question: 'Go on with ' + state.topic + '?' } }]);
        return { answer: String(answer) };
      })
      .addEdge(START, 'ask')
      .addEdge('ask', END),
    slow: new StateGraph(defineState({ trail: replace('') }))
      .addNode('first', async () => { await new Promise((done) => setTimeout(done, 300)); return { trail: 'first' }; })
      .addNode('second', async (state) => { await new Promise((done) => setTimeout(done, 300)); return { trail: state.trail + ', second' }; })
      .addEdge(START, 'first')
      .addEdge('first', 'second')
      .addEdge('second', END),
    nested: new StateGraph(defineState({ trail: append() }))
      .addNode('inner', new StateGraph(defineState({ trail: append(), seen: replace(0) }))
        .addNode('work', () => ({ trail: 'work', seen: 1 }))
        .addNode('ask', (state, context) => {
          const answer = Object.values(context.resume?.answers ?? {})[0];
          if (answer === undefined) return interrupt([{ key: 'q', value: 'go on?' }]);
          return { trail: 'ask ' + String(answer) + ' after ' + state.seen };
        })
        .addEdge(START, 'work')
        .addEdge('work', 'ask')
        .addEdge('ask', END))
      .addEdge(START, 'inner')
      .addEdge('inner', END),
  },
});
`;

async function collect(events: AsyncIterable<GraphEvent>): Promise<GraphEvent[]> {
  const seen: GraphEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe('YeoulClient.graphs against a server with a config file', () => {
  let server: ServeProcess;
  let client: YeoulClient;
  before(async () => {
    const project = makeConfigProject({ 'yeoul.config.ts': configText });
    server = await startServeProcess(mkdtempSync(join(root, 'data-')), {}, [
      '--config',
      join(project, 'yeoul.config.ts'),
    ]);
    client = new YeoulClient({ baseUrl: server.url });
  });
  after(() => server?.stop());

  it('lists the built-in and the config file’s graphs', async () => {
    const list = await client.graphs.list();
    assert.deepEqual(schemaDrift('graphs.list', graphListSchema, list), []);
    const { graphs } = list;
    const byName = new Map(graphs.map((graph) => [graph.name, graph]));
    assert.deepEqual(
      { chat: byName.get('chat')?.chat, builtin: byName.get('chat')?.builtin },
      { chat: true, builtin: true },
    );
    assert.deepEqual(
      { chat: byName.get('counter')?.chat, builtin: byName.get('counter')?.builtin },
      { chat: false, builtin: false },
    );
    assert.match(byName.get('counter')?.mermaid ?? '', /bump/);
  });

  it('runs a graph on a state update and continues its thread', async () => {
    const first = await client.graphs.invoke('counter', { input: { count: 2 } });
    assert.deepEqual(schemaDrift('graphs.invoke', graphRunResponseSchema, first), []);
    assert.equal(first.status, 'done');
    assert.deepEqual(first.values, { count: 3, note: 'was 2' });
    const second = await client.graphs.invoke('counter', { input: {}, threadId: first.threadId });
    assert.deepEqual(second.values, { count: 4, note: 'was 3' });
    const { sessions } = await client.sessions.list();
    assert.equal(
      sessions.find((session) => session.sessionId === first.threadId)?.graph,
      'counter',
    );
  });

  it('streams a graph run: typed steps, then done with the state', async () => {
    const events = await collect(client.graphs.stream('counter', { input: { count: 10 } }));
    for (const event of events) {
      const schema = graphStreamEventSchemas[event.event] as z.ZodType;
      assert.deepEqual(schemaDrift(`graphs.stream ${event.event}`, schema, event.data), []);
    }
    assert.deepEqual(
      events.map((event) =>
        event.event === 'step' ? `${event.data.phase} ${event.data.node}` : event.event,
      ),
      ['start bump', 'end bump', 'done'],
    );
    const done = events.at(-1);
    assert.ok(done?.event === 'done');
    assert.deepEqual(done.data.values, { count: 11, note: 'was 10' });
  });

  it('pauses on a question and resumes the thread with the answer', async () => {
    const events = await collect(client.graphs.stream('asker', { input: { topic: 'rapids' } }));
    const paused = events.at(-1);
    assert.ok(paused?.event === 'done');
    assert.equal(paused.data.status, 'interrupted');
    const question = paused.data.interrupts?.[0];
    assert.deepEqual(question?.value, { question: 'Go on with rapids?' });
    assert.deepEqual(schemaDrift('graphs.stream done', graphRunResponseSchema, paused.data), []);
    const asked = events.find((event) => event.event === 'interrupt');
    assert.ok(asked);
    assert.deepEqual(
      schemaDrift('graphs.stream interrupt', graphStreamEventSchemas.interrupt, asked.data),
      [],
    );

    const resumed = await client.graphs.invoke('asker', {
      threadId: paused.data.threadId,
      resume: { answers: { [question?.id ?? '']: 'yes' } },
    });
    assert.equal(resumed.status, 'done');
    assert.deepEqual(resumed.values, { topic: 'rapids', answer: 'yes' });
  });

  it("streams a subgraph's steps with their path, and resumes its question through the parent", async () => {
    const events = await collect(client.graphs.stream('nested', { input: { trail: ['start'] } }));
    for (const event of events) {
      const schema = graphStreamEventSchemas[event.event] as z.ZodType;
      assert.deepEqual(schemaDrift(`graphs.stream ${event.event}`, schema, event.data), []);
    }
    assert.deepEqual(
      events.map((event) =>
        event.event === 'step' || event.event === 'interrupt'
          ? `${event.event} ${event.data.path?.join('/') ?? event.data.node}`
          : event.event,
      ),
      [
        'step inner',
        'step inner/work',
        'step inner/work',
        'step inner/ask',
        'interrupt inner/ask',
        'interrupt inner',
        'done',
      ],
    );
    const paused = events.at(-1);
    assert.ok(paused?.event === 'done');
    const question = paused.data.interrupts?.[0];
    assert.equal(question?.value, 'go on?');
    // The question says where inside the subgraph it was asked, in the events and the answer.
    assert.deepEqual(question?.path, ['inner', 'ask']);
    const parentPause = events.find((event) => event.event === 'interrupt' && !event.data.path);
    assert.ok(parentPause?.event === 'interrupt');
    assert.deepEqual(parentPause.data.interrupts[0]?.path, ['inner', 'ask']);
    const resumed = await client.graphs.invoke('nested', {
      threadId: paused.data.threadId,
      resume: { answers: { [question?.id ?? '']: 'yes' } },
    });
    assert.equal(resumed.status, 'done');
    assert.deepEqual(resumed.values, { trail: ['start', 'work', 'ask yes after 1'] });
  });

  it('throws graph_not_found and invalid_input as YeoulApiErrors', async () => {
    await assert.rejects(client.graphs.invoke('nope', { input: {} }), {
      name: 'YeoulApiError',
      status: 404,
      code: 'graph_not_found',
    });
    const invalid = await client.graphs
      .invoke('counter', { input: { count: 'many', colour: 'blue' } })
      .catch((error: unknown) => error);
    assert.ok(invalid instanceof YeoulApiError);
    assert.equal(invalid.status, 400);
    assert.equal(invalid.code, 'invalid_input');
    assert.match(invalid.message, /input\.count/);
    assert.match(invalid.message, /input\.colour/);
  });

  it('rejoins a graph stream that drops, with Last-Event-ID: every event once, then done', async () => {
    const proxy = await startCuttingProxy(server.url, 1);
    const rejoins: Array<string | undefined> = [];
    const viaProxy = new YeoulClient({
      baseUrl: proxy.url,
      reconnect: { delayMs: 50 },
      fetch: (input, init) => {
        const headers = (init?.headers ?? {}) as Record<string, string>;
        if ((init?.method ?? 'GET') === 'GET') rejoins.push(headers['last-event-id']);
        return fetch(input, init);
      },
    });
    try {
      const events = await collect(viaProxy.graphs.stream('slow', { input: {} }));
      assert.equal(proxy.cuts(), 1);
      const done = events.at(-1);
      assert.ok(done?.event === 'done');
      assert.deepEqual(done.data.values, { trail: 'first, second' });
      const numbers = events.map((event) => Number(event.id?.split(':')[1]));
      assert.deepEqual(
        numbers,
        numbers.map((_, index) => index + 1),
      );
      assert.equal(rejoins.length, 1);
      assert.ok(events.some((event) => event.id === rejoins[0]));
    } finally {
      await proxy.close();
    }
  });
});
