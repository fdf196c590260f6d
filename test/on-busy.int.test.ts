import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type ChatCompletionRequest,
  type FakeCompletion,
  type FakeOpenAiServer,
  readEvents,
  type ServeProcess,
  startFakeOpenAiServer,
  startServeProcess,
  waitUntil,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-on-busy-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** The request's last user message. */
function lastUser(request: ChatCompletionRequest): string {
  const user = request.body.messages.filter((message) => message.role === 'user').at(-1);
  return String(user?.content ?? '');
}

/**
 * "hang …" streams a half answer and never finishes; "write X" calls write_file (which
 * waits for approval); after a tool result, "done"; else an answer naming the message.
 */
function scripted(request: ChatCompletionRequest, index: number): FakeCompletion {
  const last = request.body.messages.at(-1);
  if (last?.role === 'tool') return { kind: 'text', text: `done (${String(last.content)})` };
  const text = lastUser(request);
  if (text.startsWith('hang')) return { kind: 'stall', text: '반쯤 쓴 답 ' };
  const file = /write (\S+)/.exec(text)?.[1];
  if (file) {
    const args = JSON.stringify({ path: file, content: 'x' });
    return {
      kind: 'tool-calls',
      calls: [{ id: `w-${index}`, name: 'write_file', arguments: args }],
    };
  }
  return { kind: 'text', text: `answer: ${text}` };
}

describe('a new message on a busy session (onBusy)', () => {
  let model: FakeOpenAiServer;
  let server: ServeProcess;
  before(async () => {
    model = await startFakeOpenAiServer(scripted);
    server = await startServeProcess(
      mkdtempSync(join(root, 'data-')),
      { YEOUL_MODEL: 'compat:scripted', YEOUL_COMPAT_BASE_URL: model.baseUrl },
      ['--no-sample'],
    );
  });
  after(async () => {
    await server?.stop();
    await model?.close();
  });

  const call = async (path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(server.url + path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Json) : undefined };
  };
  const requestsOf = (message: string) => model.requests.filter((r) => lastUser(r) === message);
  /** Resolves once the model got the message (the run is inside its model call). */
  const inModelCall = (message: string) =>
    waitUntil(() => requestsOf(message).length > 0, `the model call of "${message}"`);
  const history = async (sessionId: string) =>
    (await call(`/api/sessions/${sessionId}/history`)).body.steps as Json[];
  const messagesOf = async (sessionId: string) =>
    (await call(`/api/sessions/${sessionId}`)).body.messages as Json[];
  const sent = (message: string) =>
    (requestsOf(message).at(-1)?.body.messages ?? []).map((m) => ({
      role: m.role,
      content: m.content,
    }));

  it('interrupt over invoke: the old run ends cancelled, its message and a cut answer stay', async () => {
    const old = call('/api/agent/invoke', { sessionId: 'i-1', message: 'hang one' });
    await inModelCall('hang one');
    const next = await call('/api/agent/invoke', {
      sessionId: 'i-1',
      message: 'second',
      options: { onBusy: 'interrupt' },
    });
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.equal(next.body.status, 'published');
    const stopped = (await old).body;
    assert.equal(stopped.status, 'cancelled');
    assert.deepEqual(stopped.cancelReason, {
      type: 'superseded',
      runId: next.body.runId,
      onBusy: 'interrupt',
    });
    const record = (await call(`/api/runs/${stopped.runId}`)).body;
    assert.equal(record.status, 'cancelled');
    assert.deepEqual(record.cancelReason, stopped.cancelReason);
    // Invoke does not stream: the cut answer is empty, and marked.
    const messages = await messagesOf('i-1');
    const cut = messages.find((message) => message.interrupted === true);
    assert.equal(cut?.role, 'assistant');
    assert.equal(cut?.content, '');
    assert.deepEqual(
      messages.map((message) => message.content),
      ['hang one', '', 'second', 'answer: second'],
    );
    assert.ok((await history('i-1')).some((step) => step.runId === stopped.runId));
    // The model heard nothing more of the old run, and the new run's request holds it.
    assert.equal(requestsOf('hang one').length, 1);
    assert.deepEqual(sent('second').slice(-3), [
      { role: 'user', content: 'hang one' },
      { role: 'assistant', content: '' },
      { role: 'user', content: 'second' },
    ]);
  });

  it('interrupt over a stream keeps the text it had streamed; queued runs leave nothing', async () => {
    const response = await fetch(`${server.url}/api/agent/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId: 's-1', message: 'hang streamed' }),
    });
    const events = readEvents(response, (event) => event.event === 'done');
    await inModelCall('hang streamed');
    const queued = call('/api/agent/invoke', { sessionId: 's-1', message: 'queued one' });
    await waitUntil(
      async () => (await call('/api/agent/status')).body.activeRuns >= 2,
      'the queued run',
    );
    const next = await fetch(`${server.url}/api/agent/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        sessionId: 's-1',
        message: 'third',
        options: { onBusy: 'interrupt' },
      }),
    });
    assert.equal(next.status, 200);
    const nextDone = (await readEvents(next, (event) => event.event === 'done')).at(-1) as {
      data: Json;
    };
    assert.equal(nextDone.data.status, 'published');
    const done = (await events).at(-1) as { data: Json };
    assert.equal(done.data.cancelReason.runId, nextDone.data.runId);
    assert.equal(done.data.status, 'cancelled');
    assert.equal(done.data.cancelReason.onBusy, 'interrupt');
    const skipped = (await queued).body;
    assert.equal(skipped.status, 'cancelled');
    assert.deepEqual(skipped.cancelReason, done.data.cancelReason);
    assert.equal(requestsOf('queued one').length, 0);
    const messages = await messagesOf('s-1');
    assert.deepEqual(
      messages.map((message) => [message.role, message.content, message.interrupted ?? false]),
      [
        ['user', 'hang streamed', false],
        ['assistant', '반쯤 쓴 답 ', true],
        ['user', 'third', false],
        ['assistant', 'answer: third', false],
      ],
    );
    assert.equal(requestsOf('hang streamed').length, 1);
    assert.deepEqual(sent('third').slice(-2), [
      { role: 'assistant', content: '반쯤 쓴 답 ' },
      { role: 'user', content: 'third' },
    ]);
  });

  it('rollback leaves no step of the old run and the model never sees it again', async () => {
    await call('/api/agent/invoke', { sessionId: 'r-1', message: 'first' });
    const kept = await history('r-1');
    const old = call('/api/runs', { sessionId: 'r-1', message: 'hang rolled' });
    const oldRunId = (await old).body.runId;
    await inModelCall('hang rolled');
    const next = await call('/api/runs', {
      sessionId: 'r-1',
      message: 'fourth',
      options: { onBusy: 'rollback' },
    });
    assert.equal(next.status, 202);
    const done = (await call(`/api/runs/${next.body.runId}?wait=30`)).body;
    assert.equal(done.status, 'done', JSON.stringify(done));
    const stopped = (await call(`/api/runs/${oldRunId}?wait=30`)).body;
    assert.equal(stopped.status, 'cancelled');
    assert.deepEqual(stopped.cancelReason, {
      type: 'superseded',
      runId: next.body.runId,
      onBusy: 'rollback',
    });
    const steps = await history('r-1');
    assert.ok(steps.every((step) => step.runId !== oldRunId));
    assert.deepEqual(steps.slice(0, kept.length), kept);
    assert.deepEqual(
      steps.map((step) => step.step),
      steps.map((_step, index) => steps[0].step + index),
    );
    assert.deepEqual(
      (await messagesOf('r-1')).map((message) => message.content),
      ['first', 'answer: first', 'fourth', 'answer: fourth'],
    );
    assert.equal(requestsOf('hang rolled').length, 1);
    assert.ok(sent('fourth').every((message) => message.content !== 'hang rolled'));
  });

  it('reject answers 409 at once naming the running run, and stores nothing', async () => {
    const old = await call('/api/runs', { sessionId: 'j-1', message: 'hang rejected' });
    await inModelCall('hang rejected');
    for (const path of ['/api/agent/invoke', '/api/agent/stream', '/api/runs']) {
      const refused = await call(path, {
        sessionId: 'j-1',
        message: 'not now',
        options: { onBusy: 'reject' },
      });
      assert.equal(refused.status, 409, path);
      assert.equal(refused.body.error.code, 'session_busy');
      assert.match(refused.body.error.message, new RegExp(old.body.runId));
    }
    const runs = (await call('/api/runs?sessionId=j-1')).body.runs;
    assert.deepEqual(
      runs.map((run: Json) => run.runId),
      [old.body.runId],
    );
    const untouched = (await call(`/api/runs/${old.body.runId}`)).body.status;
    assert.ok(['queued', 'running'].includes(untouched), untouched);
    assert.equal(requestsOf('not now').length, 0);
    await call(`/api/runs/${old.body.runId}/cancel`, {});
  });

  it('takes x-yeoul-on-busy on /v1 with x-session-id, refusing other values in OpenAI’s shape', async () => {
    const old = call('/api/agent/invoke', { sessionId: 'v-1', message: 'hang v1' });
    await inModelCall('hang v1');
    const completion = (mode: string) =>
      call(
        '/v1/chat/completions',
        { model: 'yeoul-chat', messages: [{ role: 'user', content: 'from v1' }] },
        { 'x-session-id': 'v-1', 'x-yeoul-on-busy': mode },
      );
    const bad = await completion('later');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.param, 'x-yeoul-on-busy');
    assert.equal(typeof bad.body.error.message, 'string');
    const answered = await completion('interrupt');
    assert.equal(answered.status, 200, JSON.stringify(answered.body));
    assert.equal(answered.body.choices[0].message.content, 'answer: from v1');
    const stopped = (await old).body;
    assert.equal(stopped.status, 'cancelled');
    assert.equal(stopped.cancelReason.onBusy, 'interrupt');
  });

  it('a schedule’s firing follows its onBusy: interrupt stops the run going', async () => {
    const old = call('/api/agent/invoke', { sessionId: 'c-1', message: 'hang scheduled' });
    await inModelCall('hang scheduled');
    const schedule = await call('/api/schedules', {
      cron: '0 0 1 1 *',
      message: 'from the schedule',
      sessionId: 'c-1',
      onBusy: 'interrupt',
    });
    assert.equal(schedule.status, 201, JSON.stringify(schedule.body));
    const fired = await call(`/api/schedules/${schedule.body.id}/run`, {});
    assert.equal(fired.status, 202, JSON.stringify(fired.body));
    const stopped = (await old).body;
    assert.deepEqual(stopped.cancelReason, {
      type: 'superseded',
      runId: fired.body.runId,
      onBusy: 'interrupt',
    });
    const run = (await call(`/api/runs/${fired.body.runId}?wait=30`)).body;
    assert.equal(run.status, 'done', JSON.stringify(run));
    assert.equal(run.result.response, 'answer: from the schedule');
  });

  it('refuses any other onBusy with 400, creating nothing', async () => {
    for (const path of ['/api/agent/invoke', '/api/agent/stream', '/api/runs']) {
      const refused = await call(path, {
        sessionId: 'b-1',
        message: 'hello',
        options: { onBusy: 'later' },
      });
      assert.equal(refused.status, 400, path);
    }
    assert.equal((await call('/api/sessions/b-1')).status, 404);
  });

  it('on a session paused for approval: enqueue and reject still 409, interrupt and rollback end the paused run', async () => {
    for (const [sessionId, mode] of [
      ['p-1', 'interrupt'],
      ['p-2', 'rollback'],
    ] as const) {
      const paused = (await call('/api/agent/invoke', { sessionId, message: 'write f.txt' })).body;
      assert.equal(paused.status, 'interrupted');
      for (const refused of ['enqueue', 'reject']) {
        const answer = await call('/api/agent/invoke', {
          sessionId,
          message: 'go on',
          options: { onBusy: refused },
        });
        assert.equal(answer.status, 409);
        assert.equal(answer.body.error.code, 'awaiting_approval');
      }
      const next = await call('/api/agent/invoke', {
        sessionId,
        message: 'something else',
        options: { onBusy: mode },
      });
      assert.equal(next.status, 200, JSON.stringify(next.body));
      assert.equal(next.body.status, 'published');
      const record = (await call(`/api/runs/${paused.runId}`)).body;
      assert.equal(record.status, 'cancelled');
      assert.deepEqual(record.cancelReason, {
        type: 'superseded',
        runId: next.body.runId,
        onBusy: mode,
      });
      const steps = await history(sessionId);
      const messages = await messagesOf(sessionId);
      if (mode === 'rollback') {
        assert.ok(steps.every((step) => step.runId !== paused.runId));
        assert.deepEqual(
          messages.map((message) => message.content),
          ['something else', 'answer: something else'],
        );
      } else {
        // The pending call is closed with a result: the next model request stays valid.
        const result = messages.find((message) => message.role === 'tool');
        assert.match(result?.content ?? '', /^Error: not run/);
        assert.ok(sent('something else').some((message) => message.role === 'tool'));
      }
    }
  });
});
