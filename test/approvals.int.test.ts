import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type ChatCompletionRequest,
  type FakeCompletion,
  type FakeOpenAiServer,
  readEvents,
  startFakeOpenAiServer,
  startServeProcess,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-approvals-'));
after(() => rmSync(root, { recursive: true, force: true }));

const write = (id: string, path: string) => ({
  id,
  name: 'write_file',
  arguments: JSON.stringify({ path, content: `written by ${id}` }),
});

/**
 * "write X" → one write_file call; "two writes" → write_file, calculator, write_file in one
 * turn; after tool results → an answer naming them; a structured-output request (the ops
 * judge) → a passing judgement.
 */
function scripted(request: ChatCompletionRequest, index: number): FakeCompletion {
  if (request.body.response_format) {
    return { kind: 'text', text: '{"score": 0.9, "feedback": ""}' };
  }
  const messages = request.body.messages;
  const last = messages.at(-1);
  if (last?.role === 'tool') {
    const results = messages
      .slice(messages.findLastIndex((message) => message.role === 'assistant') + 1)
      .map((message) => String(message.content));
    return { kind: 'text', text: `done (${results.join(' | ')})` };
  }
  const text = String(last?.content ?? '');
  if (text.includes('two writes')) {
    return {
      kind: 'tool-calls',
      calls: [
        write(`a-${index}`, 'a.txt'),
        { id: `calc-${index}`, name: 'calculator', arguments: '{"expression":"6 * 7"}' },
        write(`b-${index}`, 'b.txt'),
      ],
    };
  }
  const file = /write (\S+)/.exec(text)?.[1];
  if (file) return { kind: 'tool-calls', calls: [write(`w-${index}`, file)] };
  return { kind: 'text', text: `answer: ${text}` };
}

describe('approvals over HTTP (real server processes, real SQLite)', () => {
  let model: FakeOpenAiServer;
  let env: Record<string, string>;
  before(async () => {
    model = await startFakeOpenAiServer(scripted);
    env = { YEOUL_MODEL: 'compat:scripted', YEOUL_COMPAT_BASE_URL: model.baseUrl };
  });
  after(() => model.close());

  const call = async (url: string, path: string, body?: unknown, method = 'POST') => {
    const response = await fetch(url + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Json) : undefined };
  };

  it('pauses, survives a SIGKILL and a restart, and runs the approved call exactly once', async () => {
    const data = mkdtempSync(join(root, 'data-'));
    const first = await startServeProcess(data, env, ['--no-sample']);
    const paused = await call(first.url, '/api/agent/invoke', {
      message: 'please write note.txt',
      sessionId: 'durable',
    });
    assert.equal(paused.body.status, 'interrupted');
    const [pending] = paused.body.interrupts;
    assert.equal(pending.type, 'tool-approval');
    assert.equal(pending.tool, 'write_file');
    assert.equal(pending.args.path, 'note.txt');
    assert.equal(existsSync(join(data, 'workspace', 'note.txt')), false, 'nothing ran before');
    await first.kill();

    const second = await startServeProcess(data, env, ['--no-sample']);
    try {
      const session = await call(second.url, '/api/sessions/durable', undefined, 'GET');
      assert.deepEqual(session.body.interrupts, [pending]);
      const busy = await call(second.url, '/api/agent/invoke', {
        message: 'something else',
        sessionId: 'durable',
      });
      assert.equal(busy.status, 409);
      assert.equal(busy.body.error.code, 'awaiting_approval');
      assert.deepEqual(busy.body.error.details.interrupts, [pending]);
      const decided = await call(second.url, '/api/agent/invoke', {
        sessionId: 'durable',
        resume: { decisions: [{ id: pending.id, approve: true }] },
      });
      assert.equal(decided.status, 200, JSON.stringify(decided.body));
      assert.equal(decided.body.status, 'published');
      assert.match(decided.body.response, /^done \(Wrote/);
      assert.match(readFileSync(join(data, 'workspace', 'note.txt'), 'utf8'), /^written by w-\d+$/);
      const again = await call(second.url, '/api/agent/invoke', {
        sessionId: 'durable',
        resume: { decisions: [{ id: pending.id, approve: true }] },
      });
      assert.equal(again.status, 409);
      assert.equal(again.body.error.code, 'already_decided');
      const history = await call(second.url, '/api/sessions/durable', undefined, 'GET');
      const results = history.body.messages.filter((message: Json) => message.role === 'tool');
      assert.equal(results.length, 1, 'the tool ran once');
      const metrics = await (await fetch(`${second.url}/metrics`)).text();
      assert.match(metrics, /yeoul_decisions_total\{decision="approve"\} 1/);
      assert.match(metrics, /yeoul_tool_calls_total\{tool="write_file"\} 1/);
    } finally {
      await second.stop();
    }
  });

  it('decides two calls of one turn separately; the allowed call of that turn runs once', async () => {
    const server = await startServeProcess(mkdtempSync(join(root, 'data-')), env, ['--no-sample']);
    try {
      const paused = await call(server.url, '/api/agent/invoke', {
        message: 'two writes please',
        sessionId: 'pair',
      });
      assert.equal(paused.body.status, 'interrupted');
      assert.deepEqual(
        paused.body.interrupts.map((pending: Json) => pending.args.path),
        ['a.txt', 'b.txt'],
      );
      assert.deepEqual(paused.body.toolsUsed, ['calculator'], 'the allowed call ran at once');
      const [first, second] = paused.body.interrupts;
      const partly = await call(server.url, '/api/agent/invoke', {
        sessionId: 'pair',
        resume: { decisions: [{ id: first.id, approve: true }] },
      });
      assert.equal(partly.body.status, 'interrupted');
      assert.deepEqual(partly.body.interrupts, [second], 'the open call keeps its id');
      const done = await call(server.url, '/api/agent/invoke', {
        sessionId: 'pair',
        resume: {
          decisions: [{ id: second.id, approve: false, reason: '그 파일은 건드리지 마세요' }],
        },
      });
      assert.equal(done.body.status, 'published');
      assert.match(
        done.body.response,
        /Error: a person denied this call: 그 파일은 건드리지 마세요/,
      );
      const session = await call(server.url, '/api/sessions/pair', undefined, 'GET');
      const tools = session.body.messages
        .filter((message: Json) => message.role === 'tool')
        .map((message: Json) => message.name);
      assert.deepEqual(tools.sort(), ['calculator', 'write_file', 'write_file']);
      const unknown = await call(server.url, '/api/agent/invoke', {
        sessionId: 'pair',
        resume: { decisions: [{ id: 'no-such-interrupt', approve: true }] },
      });
      assert.equal(unknown.status, 409);
      assert.equal(unknown.body.error.code, 'not_interrupted');
    } finally {
      await server.stop();
    }
  });

  it('streams each pending call as an interrupt event, then done; refuses unknown ids with 404', async () => {
    const server = await startServeProcess(mkdtempSync(join(root, 'data-')), env, ['--no-sample']);
    try {
      const response = await fetch(`${server.url}/api/agent/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'write streamed.txt', sessionId: 'sse' }),
      });
      const events = await readEvents(response);
      const names = events.map((event) => event.event);
      assert.deepEqual(names.slice(-2), ['interrupt', 'done']);
      const interrupt = events.at(-2)?.data as Json;
      assert.equal((events.at(-1) as Json).data.status, 'interrupted');
      assert.deepEqual((events.at(-1) as Json).data.interrupts, [interrupt]);
      const unknown = await call(server.url, '/api/agent/invoke', {
        sessionId: 'sse',
        resume: { decisions: [{ id: 'nope', approve: true }] },
      });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error.code, 'interrupt_not_found');
      const resumed = await fetch(`${server.url}/api/agent/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          sessionId: 'sse',
          resume: { decisions: [{ id: interrupt.id, approve: true }] },
        }),
      });
      const rest = await readEvents(resumed);
      assert.deepEqual(
        rest.filter((event) => event.event.startsWith('tool')).map((event) => event.event),
        ['tool-call', 'tool-result'],
      );
      assert.equal((rest.at(-1) as Json).data.status, 'published');
      const notPaused = await call(server.url, '/api/agent/invoke', {
        sessionId: 'sse',
        resume: { decisions: [{ id: 'other', approve: true }] },
      });
      assert.equal(notPaused.status, 409);
      assert.equal(notPaused.body.error.code, 'not_interrupted');
    } finally {
      await server.stop();
    }
  });

  it('lets exactly one of two decisions sent at once resume the run', async () => {
    const server = await startServeProcess(mkdtempSync(join(root, 'data-')), env, ['--no-sample']);
    try {
      const paused = await call(server.url, '/api/agent/invoke', {
        message: 'write race.txt',
        sessionId: 'race',
      });
      const id = paused.body.interrupts[0].id;
      const decide = () =>
        call(server.url, '/api/agent/invoke', {
          sessionId: 'race',
          resume: { decisions: [{ id, approve: true }] },
        });
      const outcomes = await Promise.all([decide(), decide()]);
      assert.deepEqual(outcomes.map((outcome) => outcome.status).sort(), [200, 409]);
      assert.equal(
        outcomes.find((outcome) => outcome.status === 409)?.body.error.code,
        'already_decided',
      );
    } finally {
      await server.stop();
    }
  });

  it('denies every pending call with DELETE /api/sessions/:id/interrupts', async () => {
    const server = await startServeProcess(mkdtempSync(join(root, 'data-')), env, ['--no-sample']);
    try {
      await call(server.url, '/api/agent/invoke', { message: 'two writes', sessionId: 'deny' });
      const denied = await call(server.url, '/api/sessions/deny/interrupts', undefined, 'DELETE');
      assert.equal(denied.status, 200);
      assert.equal(denied.body.status, 'published');
      assert.equal((denied.body.response.match(/denied this call/g) ?? []).length, 2);
      const none = await call(server.url, '/api/sessions/deny/interrupts', undefined, 'DELETE');
      assert.equal(none.status, 409);
    } finally {
      await server.stop();
    }
  });

  it('pauses the ops loop with its inner agent and resumes it through the same API', async () => {
    const data = mkdtempSync(join(root, 'data-'));
    const server = await startServeProcess(data, env, ['--no-sample']);
    try {
      const paused = await call(server.url, '/api/agent/invoke', {
        message: 'write ops.txt',
        sessionId: 'ops',
        options: { graph: 'ops' },
      });
      assert.equal(paused.body.status, 'interrupted');
      assert.equal(paused.body.interrupts[0].tool, 'write_file');
      const session = await call(server.url, '/api/sessions/ops', undefined, 'GET');
      assert.deepEqual(session.body.interrupts, paused.body.interrupts);
      const done = await call(server.url, '/api/agent/invoke', {
        sessionId: 'ops',
        resume: { decisions: [{ id: paused.body.interrupts[0].id, approve: true }] },
      });
      assert.equal(done.body.status, 'published', JSON.stringify(done.body));
      assert.ok(done.body.evaluation, 'the ops loop evaluated the answer');
      assert.match(readFileSync(join(data, 'workspace', 'ops.txt'), 'utf8'), /^written by w-\d+$/);
    } finally {
      await server.stop();
    }
  });
});
