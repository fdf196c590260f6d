import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RunningServer } from '../src/server/index.ts';
import { startTestServer } from '../src/testing/internal/test-server.ts';
import { runYeoul } from '../src/testing/internal/yeoul-process.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-fork-'));
after(() => rmSync(root, { recursive: true, force: true }));

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

/** Requests with a bearer key, answering status and JSON body. */
function client(server: RunningServer, key: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(server.url + path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body: unknown) => call('POST', path, body),
  };
}

describe('session forks over HTTP', () => {
  let server: RunningServer;
  before(async () => {
    ({ server } = await startTestServer(mkdtempSync(join(root, 'data-')), {
      YEOUL_API_KEYS: 'key-a,key-b',
      YEOUL_SAMPLE_KNOWLEDGE: 'false',
    }));
  });
  after(() => server.close());

  it('forks a session before a message: steps numbered, 201 with forkedFrom, the original untouched', async () => {
    const a = client(server, 'key-a');
    assert.equal(
      (await a.post('/api/agent/invoke', { message: '안녕', sessionId: 'orig' })).status,
      200,
    );
    assert.equal(
      (await a.post('/api/agent/invoke', { message: '123 * 456 계산해줘', sessionId: 'orig' }))
        .status,
      200,
    );
    const history = (await a.get('/api/sessions/orig/history')).body.steps as Json[];
    assert.deepEqual(
      history.map((entry) => entry.step),
      history.map((_entry: Json, index: number) => index),
    );
    const secondInput = history.filter((entry) => entry.kind === 'input')[1];
    const atStep = secondInput.step - 1;
    const before = JSON.stringify(history);

    const forked = await a.post('/api/sessions/orig/fork', { atStep, sessionId: 'edited' });
    assert.equal(forked.status, 201);
    assert.deepEqual(forked.body, {
      sessionId: 'edited',
      forkedFrom: { sessionId: 'orig', step: atStep },
    });
    const session = (await a.get('/api/sessions/edited')).body;
    assert.deepEqual(session.forkedFrom, { sessionId: 'orig', step: atStep });
    assert.deepEqual(
      session.messages.map((message: Json) => message.role),
      ['user', 'assistant'],
      'the state before the second message',
    );
    assert.equal((await a.get('/api/sessions/orig')).body.forkedFrom, undefined);
    const edited = await a.post('/api/agent/invoke', {
      message: '2 + 2 계산해줘',
      sessionId: 'edited',
    });
    assert.equal(edited.status, 200);
    assert.equal(JSON.stringify((await a.get('/api/sessions/orig/history')).body.steps), before);

    const generated = await a.post('/api/sessions/orig/fork', { atStep: -1 });
    assert.equal(generated.status, 201);
    assert.equal(typeof generated.body.sessionId, 'string');
    const listed = (await a.get('/api/sessions')).body.sessions as Json[];
    const sessions = listed.map((s: Json) => s.sessionId);
    assert.ok(sessions.includes('edited'), 'the fork belongs to the same owner');
    // The list marks forks with their origin (the console links them both ways).
    const originOf = (id: string) => listed.find((s: Json) => s.sessionId === id)?.forkedFrom;
    assert.deepEqual(originOf('edited'), { sessionId: 'orig', step: atStep });
    assert.deepEqual(originOf(generated.body.sessionId), { sessionId: 'orig', step: -1 });
    assert.equal(originOf('orig'), undefined);
  });

  it('numbers each history step with its run’s super-step (0 for the input)', async () => {
    const a = client(server, 'key-a');
    await a.post('/api/agent/invoke', { message: '안녕', sessionId: 'supersteps' });
    const steps = (await a.get('/api/sessions/supersteps/history')).body.steps as Json[];
    assert.equal(steps[0].kind, 'input');
    assert.equal(steps[0].superstep, 0);
    // One node at a time in the chat graph: each node entry is the next super-step.
    const nodes = steps.filter((entry) => entry.kind === 'node');
    assert.ok(nodes.length > 0);
    assert.deepEqual(
      nodes.map((entry) => entry.superstep),
      nodes.map((_entry: Json, index: number) => index + 1),
    );
  });

  it('answers 400 for a bad step, 409 for a taken id, 404 for an unknown or another owner’s session', async () => {
    const a = client(server, 'key-a');
    const b = client(server, 'key-b');
    await a.post('/api/agent/invoke', { message: '안녕', sessionId: 'base' });
    const last = (await a.get('/api/sessions/base/history')).body.steps.length - 1;
    for (const atStep of [last + 1, -2, 1.5, 'x']) {
      const response = await a.post('/api/sessions/base/fork', { atStep });
      assert.equal(response.status, 400, `atStep ${atStep}`);
    }
    const beyond = await a.post('/api/sessions/base/fork', { atStep: last + 1 });
    assert.equal(beyond.body.error.code, 'invalid_fork_point');
    assert.match(
      beyond.body.error.message,
      new RegExp(`nearest steps that can be forked are ${last}`),
    );
    await a.post('/api/sessions/base/fork', { atStep: last, sessionId: 'taken' });
    assert.equal(
      (await a.post('/api/sessions/base/fork', { atStep: last, sessionId: 'taken' })).status,
      409,
    );
    assert.equal(
      (await a.post('/api/sessions/base/fork', { atStep: last, sessionId: 'orig' })).status,
      409,
    );
    assert.equal((await a.post('/api/sessions/nobody/fork', { atStep: -1 })).status, 404);
    assert.equal((await b.post('/api/sessions/base/fork', { atStep: -1 })).status, 404);
  });
});

describe('yeoul sessions fork', () => {
  it('forks a session at a step into a new session, and refuses a step it cannot fork', async () => {
    const data = mkdtempSync(join(root, 'cli-'));
    const asked = await runYeoul(['ask', '안녕', '--session', 'cli-orig', '--data', data]);
    assert.equal(asked.code, 0, asked.stderr);
    const forked = await runYeoul([
      'sessions',
      'fork',
      'cli-orig',
      '--at-step=-1',
      '--json',
      '--data',
      data,
    ]);
    assert.equal(forked.code, 0, forked.stderr);
    const body = JSON.parse(forked.stdout);
    assert.deepEqual(body.forkedFrom, { sessionId: 'cli-orig', step: -1 });
    const shown = await runYeoul(['sessions', 'show', body.sessionId, '--json', '--data', data]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.deepEqual(JSON.parse(shown.stdout).messages, []);
    const refused = await runYeoul([
      'sessions',
      'fork',
      'cli-orig',
      '--at-step',
      '999',
      '--data',
      data,
    ]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /cannot be forked at step 999/);
    const usage = await runYeoul(['sessions', 'fork', 'cli-orig', '--data', data]);
    assert.equal(usage.code, 2);
  });
});
