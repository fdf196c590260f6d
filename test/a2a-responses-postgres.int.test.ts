import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import OpenAI from 'openai';
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

const root = mkdtempSync(join(tmpdir(), 'yeoul-a2a-responses-pg-'));
after(() => rmSync(root, { recursive: true, force: true }));

function lastUser(request: ChatCompletionRequest): string {
  const user = request.body.messages.filter((message) => message.role === 'user').at(-1);
  return String(user?.content ?? '');
}

/** "slow …" never finishes; "write F" asks to write F; after a tool result, "done"; else an echo. */
function scripted(request: ChatCompletionRequest, index: number): FakeCompletion {
  if (request.body.messages.at(-1)?.role === 'tool') return { kind: 'text', text: 'done' };
  const text = lastUser(request);
  if (text.startsWith('slow')) return { kind: 'stall', text: 'thinking about it' };
  const file = /write (\S+)/.exec(text)?.[1];
  if (file) {
    const args = JSON.stringify({ path: file, content: 'hi' });
    return {
      kind: 'tool-calls',
      calls: [{ id: `c-${index}`, name: 'write_file', arguments: args }],
    };
  }
  const users = request.body.messages.filter((message) => message.role === 'user').length;
  return { kind: 'text', text: `echo ${users}: ${text}` };
}

describe('A2A tasks and OpenAI responses across two instances sharing one PostgreSQL', () => {
  let database: PostgresServer;
  let model: FakeOpenAiServer;
  let a: ServeProcess;
  let b: ServeProcess;
  let responsesOnA: OpenAI;
  let responsesOnB: OpenAI;

  /** A JSON-RPC call to the react agent of one instance. */
  const rpc = async (on: ServeProcess, method: string, params: unknown): Promise<Json> =>
    (await (
      await fetch(`${on.url}/a2a/react`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      })
    ).json()) as Json;
  const send = (on: ServeProcess, message: Json, configuration?: Json) =>
    rpc(on, 'SendMessage', {
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', ...message },
      ...(configuration ? { configuration } : {}),
    });
  const ask = (on: ServeProcess, text: string, configuration?: Json) =>
    send(on, { parts: [{ text }] }, configuration);
  const decide = (on: ServeProcess, taskId: string, id: string) =>
    send(on, { taskId, parts: [{ data: { decisions: [{ id, approve: true }] } }] });
  /** The model calls that carried the result of writing `file`. */
  const writesOf = (file: string) =>
    model.requests.filter((request) =>
      request.body.messages.some(
        (message) => message.role === 'tool' && String(message.content).includes(file),
      ),
    ).length;
  /** A task paused for the approval of writing `file`, made on A: its id and the approval's. */
  const pausedTask = async (file: string) => {
    const paused = (await ask(a, `please write ${file}`)).result.task;
    assert.equal(paused.status.state, 'TASK_STATE_INPUT_REQUIRED');
    const data = paused.status.message.parts.find((part: Json) => part.data !== undefined);
    return { taskId: paused.id as string, approvalId: data.data.interrupts[0].id as string };
  };

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
    responsesOnA = new OpenAI({ baseURL: `${a.url}/v1`, apiKey: 'none', maxRetries: 0 });
    responsesOnB = new OpenAI({ baseURL: `${b.url}/v1`, apiKey: 'none', maxRetries: 0 });
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await model?.close();
    await database?.stop();
  });

  it('fetches and continues on B a task made on A, and cancels from B a task running on A', async () => {
    const { taskId, approvalId } = await pausedTask('a2a-across.txt');
    const fetched = (await rpc(b, 'GetTask', { id: taskId })).result;
    assert.equal(fetched.id, taskId);
    assert.equal(fetched.status.state, 'TASK_STATE_INPUT_REQUIRED');
    const done = (await decide(b, taskId, approvalId)).result.task;
    assert.equal(done.id, taskId, 'the decision on B resumes the task of A');
    assert.equal(done.status.state, 'TASK_STATE_COMPLETED');
    assert.equal(done.artifacts[0].parts[0].text, 'done');
    assert.equal(writesOf('a2a-across.txt'), 1);

    const started = (await ask(a, 'slow on a', { returnImmediately: true })).result.task;
    assert.equal(started.status.state, 'TASK_STATE_WORKING');
    await waitUntil(
      () => model.requests.some((request) => lastUser(request) === 'slow on a'),
      'the model call of the slow task',
    );
    const cancelled = (await rpc(b, 'CancelTask', { id: started.id })).result;
    assert.equal(cancelled.status.state, 'TASK_STATE_CANCELED');
    const seenOnA = (await rpc(a, 'GetTask', { id: started.id })).result;
    assert.equal(seenOnA.status.state, 'TASK_STATE_CANCELED');
  });

  it('completes a returnImmediately task of A, readable on B', async () => {
    const started = (await ask(a, 'in the background', { returnImmediately: true })).result.task;
    assert.equal(started.status.state, 'TASK_STATE_WORKING');
    let task: Json;
    await waitUntil(async () => {
      task = (await rpc(b, 'GetTask', { id: started.id })).result;
      return task.status.state === 'TASK_STATE_COMPLETED';
    }, 'the task to complete');
    assert.equal(task.contextId, started.contextId);
    assert.equal(task.artifacts[0].parts[0].text, 'echo 1: in the background');
    const listed = (await rpc(b, 'ListTasks', { contextId: started.contextId })).result;
    assert.deepEqual(
      listed.tasks.map((entry: Json) => entry.id),
      [started.id],
    );
  });

  it('resumes a task once when A and B are sent its decision at the same time', async () => {
    const { taskId, approvalId } = await pausedTask('a2a-twice.txt');
    const answers = await Promise.all([
      decide(a, taskId, approvalId),
      decide(b, taskId, approvalId),
    ]);
    const resumed = answers.filter((answer) => answer.result !== undefined);
    const refused = answers.filter((answer) => answer.error !== undefined);
    assert.equal(resumed.length, 1, JSON.stringify(answers));
    assert.equal(resumed[0].result.task.status.state, 'TASK_STATE_COMPLETED');
    assert.equal(refused.length, 1);
    assert.equal(refused[0].error.code, -32004);
    assert.equal(refused[0].error.data.code, 'already_decided');
    assert.equal(writesOf('a2a-twice.txt'), 1, 'the approved call ran exactly once');
  });

  it('retrieves on B a response made on A, and continues it there', async () => {
    const first = await responsesOnA.responses.create({ model: 'yeoul-react', input: 'one' });
    const fetched = await responsesOnB.responses.retrieve(first.id);
    assert.equal(fetched.output_text, 'echo 1: one');
    const second = await responsesOnB.responses.create({
      model: 'yeoul-react',
      input: 'two',
      previous_response_id: first.id,
    });
    assert.equal(second.output_text, 'echo 2: two');
    const sessionId = (second as Json).conversation.id;
    assert.equal(sessionId, (first as Json).conversation.id);
    const session = (await (await fetch(`${a.url}/api/sessions/${sessionId}`)).json()) as Json;
    assert.equal(session.messages.at(-1).id, (second.output[0] as Json).id);
    const stream = await responsesOnB.responses.create({
      model: 'yeoul-react',
      input: 'three',
      previous_response_id: second.id,
      stream: true,
    });
    const events: Json[] = [];
    for await (const event of stream) events.push(event);
    const completed = events.at(-1).response;
    assert.equal(completed.output[0].content[0].text, 'echo 3: three');
    const after = (await (await fetch(`${a.url}/api/sessions/${sessionId}`)).json()) as Json;
    const id = after.messages.at(-1).id;
    assert.equal(completed.output[0].id, id);
    for (const event of events.filter((event) => 'item_id' in event)) {
      assert.equal(event.item_id, id);
    }
  });

  it('continues a response once when A and B are sent its approval at the same time', async () => {
    const paused = await responsesOnA.responses.create({
      model: 'yeoul-react',
      input: 'please write responses-twice.txt',
    });
    const request = paused.output[0] as Json;
    assert.equal(request.type, 'mcp_approval_request');
    const approve = (client: OpenAI) =>
      client.responses.create({
        model: 'yeoul-react',
        previous_response_id: paused.id,
        input: [{ type: 'mcp_approval_response', approval_request_id: request.id, approve: true }],
      });
    const outcomes = await Promise.allSettled([approve(responsesOnA), approve(responsesOnB)]);
    const answered = outcomes.flatMap((outcome) =>
      outcome.status === 'fulfilled' ? [outcome.value] : [],
    );
    const refused = outcomes.flatMap((outcome) =>
      outcome.status === 'rejected' ? [outcome.reason as Json] : [],
    );
    assert.equal(answered.length, 1, JSON.stringify(refused));
    assert.equal(answered[0]?.output_text, 'done');
    assert.equal(refused.length, 1);
    assert.equal(refused[0].status, 409);
    assert.equal(refused[0].code, 'already_decided');
    assert.equal(writesOf('responses-twice.txt'), 1, 'the approved call ran exactly once');
  });
});
