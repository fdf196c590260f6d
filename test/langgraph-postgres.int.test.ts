import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@langchain/langgraph-sdk';
import {
  type ChatCompletionRequest,
  type FakeCompletion,
  type FakeOpenAiServer,
  type PostgresServer,
  type ServeProcess,
  startFakeOpenAiServer,
  startPostgresServer,
  startServeProcess,
  waitUntil,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-langgraph-pg-'));
after(() => rmSync(root, { recursive: true, force: true }));

function lastUser(request: ChatCompletionRequest): string {
  const user = request.body.messages.filter((message) => message.role === 'user').at(-1);
  return String(user?.content ?? '');
}

/** "hang …" never finishes; "write F" asks to write F; after a tool result, "done"; else an echo. */
function scripted(request: ChatCompletionRequest, index: number): FakeCompletion {
  if (request.body.messages.at(-1)?.role === 'tool') return { kind: 'text', text: 'done' };
  const text = lastUser(request);
  if (text.startsWith('hang')) return { kind: 'stall', text: '가다 만 답 ' };
  const file = /write (\S+)/.exec(text)?.[1];
  if (file) {
    const args = JSON.stringify({ path: file, content: 'hi' });
    return {
      kind: 'tool-calls',
      calls: [{ id: `c-${index}`, name: 'write_file', arguments: args }],
    };
  }
  return { kind: 'text', text: `echo: ${text}` };
}

describe('LangGraph runs across two instances sharing one PostgreSQL', () => {
  let database: PostgresServer;
  let model: FakeOpenAiServer;
  let a: ServeProcess;
  let b: ServeProcess;
  let onA: Client;
  let onB: Client;
  before(async () => {
    database = await startPostgresServer();
    model = await startFakeOpenAiServer(scripted);
    const env = {
      DATABASE_URL: await database.createDatabase(),
      YEOUL_MODEL: 'compat:s',
      YEOUL_COMPAT_BASE_URL: model.baseUrl,
    };
    a = await startServeProcess(join(root, 'a'), env, ['--no-sample']);
    b = await startServeProcess(join(root, 'b'), env, ['--no-sample']);
    onA = new Client({ apiUrl: a.url });
    onB = new Client({ apiUrl: b.url });
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await model?.close();
    await database?.stop();
  });

  it('joins on B a run started on A, and cancels from B a run going on A', async () => {
    const thread = await onA.threads.create();
    assert.equal((await onB.threads.get(thread.thread_id)).thread_id, thread.thread_id);
    const run = await onA.runs.create(thread.thread_id, 'react', {
      input: { messages: [{ type: 'human', content: 'hi from a' }] },
    });
    const joined = (await onB.runs.join(thread.thread_id, run.run_id)) as Json;
    assert.equal(joined.messages.at(-1).content, 'echo: hi from a');
    const events: Json[] = [];
    for await (const part of onB.runs.joinStream(thread.thread_id, run.run_id)) events.push(part);
    assert.equal(events[0].event, 'metadata');
    assert.equal(events.at(-1).event, 'values');
    assert.equal(events.at(-1).data.messages.at(-1).content, 'echo: hi from a');

    const hanging = await onA.runs.create(thread.thread_id, 'react', {
      input: { messages: [{ type: 'human', content: 'hang on a' }] },
    });
    await waitUntil(
      () => model.requests.some((request) => lastUser(request) === 'hang on a'),
      'the model call of the hanging run',
    );
    await onB.runs.cancel(thread.thread_id, hanging.run_id, true);
    const stopped = await onA.runs.get(thread.thread_id, hanging.run_id);
    assert.equal(stopped.status, 'interrupted');
  });

  it('joins on B the stream of a run started on A with the run’s own stream modes', async () => {
    const thread = await onA.threads.create();
    const run = await onA.runs.create(thread.thread_id, 'react', {
      input: { messages: [{ type: 'human', content: 'modes from a' }] },
      streamMode: ['updates', 'messages-tuple'],
    });
    const joined = (await onB.runs.join(thread.thread_id, run.run_id)) as Json;
    const events: Json[] = [];
    for await (const part of onB.runs.joinStream(thread.thread_id, run.run_id)) events.push(part);
    const names = new Set(events.map((part) => part.event));
    assert.ok(names.has('updates') && names.has('messages'), [...names].join(', '));
    // The answer's chunks reach B under the answer's id in the state, as A's clients got them.
    const answer = joined.messages.at(-1);
    const chunks = events.filter(
      (part) => part.event === 'messages' && part.data[0].type === 'AIMessageChunk',
    );
    assert.equal(chunks.map((part) => part.data[0].content).join(''), answer.content);
    assert.ok(chunks.every((part) => part.data[0].id === answer.id));
    assert.ok(!names.has('values'), 'values was not among the run’s modes');
    const asked: Json[] = [];
    for await (const part of onB.runs.joinStream(thread.thread_id, run.run_id, {
      streamMode: 'values',
    })) {
      asked.push(part);
    }
    assert.deepEqual([...new Set(asked.map((part) => part.event))], ['metadata', 'values']);
  });

  it('decides one approval once when A and B are asked at the same time', async () => {
    const thread = await onA.threads.create();
    const paused = (await onA.runs.wait(thread.thread_id, 'react', {
      input: { messages: [{ type: 'human', content: 'please write twice.txt' }] },
    })) as Json;
    assert.equal(paused.__interrupt__[0].value.action_requests[0].name, 'write_file');
    const decide = (client: Client) =>
      client.runs
        .wait(thread.thread_id, 'react', {
          command: { resume: { decisions: [{ type: 'approve' }] } },
        })
        .then(
          () => 200,
          (error) => error.status ?? String(error),
        );
    const statuses = await Promise.all([decide(onA), decide(onB)]);
    assert.deepEqual(statuses.sort(), [200, 409]);
    const writes = model.requests.filter((request) =>
      request.body.messages.some(
        (message) => message.role === 'tool' && String(message.content).includes('twice.txt'),
      ),
    );
    assert.equal(writes.length, 1, 'the approved call ran exactly once');
  });
});
