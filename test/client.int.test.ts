import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { z } from 'zod';
import { type AgentEvent, YeoulApiError, YeoulClient } from '../src/client/index.ts';
import {
  agentStreamEventSchemas,
  documentListSchema,
  documentsCreatedSchema,
  historySchema,
  invokeResponseSchema,
  searchResponseSchema,
  sessionListSchema,
  sessionSchema,
  statusResponseSchema,
} from '../src/protocol/index.ts';
import type { RunningServer } from '../src/server/index.ts';
import { closedPortUrl } from '../src/testing/internal/index.ts';
import { startTestServer } from '../src/testing/internal/test-server.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-client-'));
after(() => rmSync(root, { recursive: true, force: true }));

const serve = (env: Record<string, string> = {}) =>
  startTestServer(mkdtempSync(join(root, 'data-')), env);

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

/** Each event's data is what the shared schema of its name describes. */
function assertEventsMatchSchemas(events: AgentEvent[]): void {
  for (const event of events) {
    const schema = agentStreamEventSchemas[event.event] as z.ZodType;
    assert.ok(schema, `an event the protocol does not name: ${event.event}`);
    schema.parse(event.data);
  }
}

/** The run's event numbers (`<runId>:<n>`): one run, each number once, in order. */
function eventNumbers(events: AgentEvent[]): number[] {
  const runs = new Set(events.map((event) => event.id?.split(':')[0]));
  assert.equal(runs.size, 1, 'all events belong to one run');
  return events.map((event) => Number(event.id?.split(':')[1]));
}

describe('YeoulClient against a real server (offline model, SQLite)', () => {
  let server: RunningServer;
  let client: YeoulClient;
  before(async () => {
    ({ server } = await serve({ YEOUL_TOOL_PERMISSIONS: 'calculator:ask' }));
    client = new YeoulClient({ baseUrl: server.url });
  });
  after(() => server.close());

  it('invokes the agent and returns the answer payload', async () => {
    const answer = await client.invoke({ message: 'my name is Mina' });
    invokeResponseSchema.parse(answer);
    assert.equal(answer.status, 'published');
    assert.match(answer.response, /Mina/);
    assert.ok(answer.steps.length > 0);
  });

  it('streams typed events in order, ending after done, on a session it can rejoin', async () => {
    const events = await collect(client.stream({ message: 'hello there' }));
    assertEventsMatchSchemas(events);
    const last = events.at(-1);
    assert.equal(last?.event, 'done');
    if (last?.event !== 'done') return;
    assert.equal(last.data.status, 'published');
    assert.ok(events.some((event) => event.event === 'step' && event.data.phase === 'start'));
    const numbers = eventNumbers(events);
    assert.deepEqual(
      numbers,
      [...numbers].sort((a, b) => a - b),
    );
    // The client named the session itself (so that it could rejoin): the server used it.
    const session = await client.sessions.get(last.data.sessionId);
    assert.equal(session.sessionId, last.data.sessionId);
  });

  it('pauses for approval, lists the pending call, and resumes with a decision', async () => {
    const events = await collect(client.stream({ message: '123 * 456 계산해줘' }));
    assertEventsMatchSchemas(events);
    const interrupts = events.filter((event) => event.event === 'interrupt');
    assert.equal(interrupts.length, 1);
    const pending = interrupts[0];
    const done = events.at(-1);
    assert.ok(pending?.event === 'interrupt' && done?.event === 'done');
    assert.equal(pending.data.tool, 'calculator');
    assert.equal(done.data.status, 'interrupted');
    const sessionId = done.data.sessionId;

    // A new message on the paused session is refused before any event: the stream throws.
    await assert.rejects(collect(client.stream({ message: 'something else', sessionId })), {
      name: 'YeoulApiError',
      status: 409,
      code: 'awaiting_approval',
    });

    const paused = await client.sessions.get(sessionId);
    assert.deepEqual(
      paused.interrupts.map((interrupt) => interrupt.id),
      [pending.data.id],
    );
    const answer = await client.resume(sessionId, [{ id: pending.data.id, approve: true }]);
    assert.equal(answer.status, 'published');
    assert.deepEqual(answer.toolsUsed, ['calculator']);
    assert.match(answer.response, /56,088/);

    // A second decision on the same call: it was decided already.
    await assert.rejects(client.resume(sessionId, [{ id: pending.data.id, approve: false }]), {
      name: 'YeoulApiError',
      status: 409,
      code: 'already_decided',
    });
  });

  it('streams a resumed run too: the approved call, its result and the answer', async () => {
    const first = await client.invoke({ message: '7 * 6 계산해줘' });
    const pending = first.interrupts?.[0];
    assert.ok(pending, 'the calculator call waits for approval');
    const events = await collect(
      client.stream({
        sessionId: first.sessionId,
        resume: { decisions: [{ id: pending.id, approve: true }] },
      }),
    );
    assertEventsMatchSchemas(events);
    const names = events.map((event) => event.event);
    assert.ok(names.indexOf('tool-call') < names.indexOf('tool-result'));
    assert.equal(names.at(-1), 'done');
  });

  it('lists, reads, replays and deletes sessions', async () => {
    const { sessionId } = await client.invoke({ message: 'session for listing' });
    const list = await client.sessions.list();
    sessionListSchema.parse(list);
    assert.ok(list.sessions.some((session) => session.sessionId === sessionId));

    const session = await client.sessions.get(sessionId);
    sessionSchema.parse(session);
    assert.deepEqual(
      session.messages.map((message) => message.role),
      ['user', 'assistant'],
    );

    const history = await client.sessions.history(sessionId);
    historySchema.parse(history);
    assert.equal(history.steps[0]?.kind, 'input');

    assert.equal(await client.sessions.delete(sessionId), undefined);
    await assert.rejects(client.sessions.get(sessionId), { name: 'YeoulApiError', status: 404 });
    const after = await client.sessions.list();
    assert.ok(!after.sessions.some((entry) => entry.sessionId === sessionId));
  });

  it('adds, uploads, lists, searches and deletes documents', async () => {
    const created = await client.documents.add({
      documents: [
        { id: 'otter-note', title: 'Otters', text: 'Sea otters hold hands while they sleep.' },
      ],
    });
    documentsCreatedSchema.parse(created);
    assert.deepEqual(created.ids, ['otter-note']);

    const uploaded = await client.documents.upload({
      file: new Blob(['여울은 물살이 빠른 곳입니다. Yeoul means rapids.'], { type: 'text/plain' }),
      filename: 'yeoul-meaning.txt',
      title: 'What Yeoul means',
      metadata: { lang: 'ko' },
    });
    assert.deepEqual(uploaded.ids, ['yeoul-meaning.txt']);

    const list = await client.documents.list();
    documentListSchema.parse(list);
    const meaning = list.documents.find((document) => document.id === 'yeoul-meaning.txt');
    assert.equal(meaning?.title, 'What Yeoul means');
    assert.equal(meaning?.metadata.lang, 'ko');

    const found = await client.search('otters sleep', 3);
    searchResponseSchema.parse(found);
    assert.equal(found.hits[0]?.documentId, 'otter-note');
    assert.ok(found.hits.length <= 3);

    await client.documents.delete('otter-note');
    const again = await client.search('otters sleep');
    assert.ok(!again.hits.some((hit) => hit.documentId === 'otter-note'));
    await assert.rejects(client.documents.delete('otter-note'), {
      name: 'YeoulApiError',
      status: 404,
      code: 'not_found',
    });
  });

  it('reads the status', async () => {
    const status = await client.status();
    statusResponseSchema.parse(status);
    assert.match(status.model, /^offline:/);
    assert.ok(status.tools.includes('calculator'));
  });

  it('throws the error body as a YeoulApiError: status, code, message, details, request id', async () => {
    const error = await client.sessions.history('no-such-session').catch((caught) => caught);
    assert.ok(error instanceof YeoulApiError);
    assert.equal(error.status, 404);
    assert.equal(error.code, 'not_found');
    assert.match(error.message, /no-such-session/);
    assert.ok(error.requestId);

    // A body the types would refuse, sent anyway: the server's validation answers.
    const invalid = await client
      .invoke({ message: 'x', options: { temperature: 9 } })
      .catch((caught) => caught);
    assert.ok(invalid instanceof YeoulApiError);
    assert.equal(invalid.status, 400);
    assert.equal(invalid.code, 'invalid_request');
    assert.match(invalid.message, /options\.temperature/);
    assert.ok(Array.isArray(invalid.details));

    const joined = await client.sessions
      .join('no-run-here')
      .next()
      .catch((caught) => caught);
    assert.ok(joined instanceof YeoulApiError);
    assert.equal(joined.status, 404);
  });

  it('rejects with the abort reason, not an API error, when the caller aborts', async () => {
    const controller = new AbortController();
    controller.abort(new Error('changed my mind'));
    await assert.rejects(client.status({ signal: controller.signal }), {
      message: 'changed my mind',
    });
    await assert.rejects(collect(client.stream({ message: 'hi' }, { signal: controller.signal })), {
      message: 'changed my mind',
    });
  });

  it('reports a server it cannot reach as network_error (status 0)', async () => {
    const unreachable = new YeoulClient({ baseUrl: await closedPortUrl() });
    await assert.rejects(unreachable.status(), {
      name: 'YeoulApiError',
      status: 0,
      code: 'network_error',
    });
  });
});

describe('YeoulClient with API keys', () => {
  let server: RunningServer;
  before(async () => {
    ({ server } = await serve({ YEOUL_API_KEYS: 'key-one' }));
  });
  after(() => server.close());

  it('sends its key as a bearer token, and a missing key gets 401', async () => {
    const status = await new YeoulClient({ baseUrl: server.url, apiKey: 'key-one' }).status();
    assert.equal(status.status, 'ok');
    await assert.rejects(new YeoulClient({ baseUrl: server.url }).sessions.list(), {
      name: 'YeoulApiError',
      status: 401,
    });
  });
});
