import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HttpAgent } from '@ag-ui/client';
import { EventSchemas } from '@ag-ui/core/schemas';
import {
  type ChatCompletionRequest,
  type FakeCompletion,
  type FakeOpenAiServer,
  type PostgresServer,
  type ServeProcess,
  startFakeOpenAiServer,
  startPostgresServer,
  startServeProcess,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-ag-ui-pg-'));
after(() => rmSync(root, { recursive: true, force: true }));

/**
 * "write F" → write_file; "weather" with client_weather offered → that tool; after a tool
 * result → "result: …"; otherwise it answers with how many user messages it was given and
 * the last one.
 */
function scripted(request: ChatCompletionRequest, index: number): FakeCompletion {
  const messages = request.body.messages;
  const last = messages.at(-1);
  if (last?.role === 'tool') return { kind: 'text', text: `result: ${String(last.content)}` };
  const text = String(last?.content ?? '');
  const call = (name: string, args: unknown): FakeCompletion => ({
    kind: 'tool-calls',
    calls: [{ id: `c-${index}`, name, arguments: JSON.stringify(args) }],
  });
  const file = /write (\S+)/.exec(text)?.[1];
  if (file) return call('write_file', { path: file, content: `written ${file}` });
  const tools = (request.body.tools ?? []) as Json[];
  if (text.includes('weather') && tools.some((tool) => tool.function?.name === 'client_weather')) {
    return call('client_weather', { city: 'Seoul' });
  }
  const users = messages.filter((message) => message.role === 'user').length;
  return { kind: 'text', text: `turn ${users}: ${text}` };
}

describe('AG-UI threads across two instances sharing one PostgreSQL', () => {
  let database: PostgresServer;
  let model: FakeOpenAiServer;
  let a: ServeProcess;
  let b: ServeProcess;

  /** An HttpAgent on `server` for the thread `threadId`, holding `messages` already. */
  const agentOn = (server: ServeProcess, threadId: string, messages: Json[] = []) =>
    new HttpAgent({ url: `${server.url}/ag-ui/react`, threadId, initialMessages: messages });

  /** Runs the agent once (with `text` as a new user message when given); its events. */
  const run = async (agent: HttpAgent, text?: string, parameters: Json = {}) => {
    if (text !== undefined) agent.addMessage({ id: randomUUID(), role: 'user', content: text });
    const events: Json[] = [];
    await agent.runAgent(parameters, { onEvent: ({ event }) => void events.push(event) });
    for (const event of events) assert.ok(EventSchemas.safeParse(event).success, event.type);
    return events;
  };

  const session = async (server: ServeProcess, id: string): Promise<Json> =>
    (await fetch(`${server.url}/api/sessions/${id}`)).json();

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
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await model?.close();
    await database?.stop();
  });

  it('continues on B a thread started on A, with its history', async () => {
    const threadId = `t-${randomUUID()}`;
    const onA = agentOn(a, threadId);
    await run(onA, 'first on a');
    const onB = agentOn(b, threadId, onA.messages);
    const events = await run(onB, 'then on b');
    const text = events
      .filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')
      .map((event) => event.delta)
      .join('');
    assert.equal(text, 'turn 2: then on b', 'the model got the turn from A');
    const stored = await session(a, threadId);
    assert.deepEqual(
      stored.messages.map((message: Json) => message.id),
      onB.messages.map((message) => message.id),
    );
    assert.equal(stored.messages.length, 4);
  });

  it('decides a write_file approval raised on A once when A and B resume at once', async () => {
    const threadId = `t-${randomUUID()}`;
    const onA = agentOn(a, threadId);
    const paused = await run(onA, 'write twice.txt');
    const [pending] = paused.at(-1).outcome.interrupts;
    assert.equal(pending.reason, 'tool_approval');
    const body = {
      threadId,
      messages: [],
      resume: [{ interruptId: pending.id, status: 'resolved', payload: { approved: true } }],
    };
    const answers = await Promise.all(
      [a, b].map(async (server) => {
        const response = await fetch(`${server.url}/ag-ui/react`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...body, runId: randomUUID() }),
        });
        return { status: response.status, text: await response.text() };
      }),
    );
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409]);
    const refused = answers.find((answer) => answer.status === 409);
    assert.equal(JSON.parse(refused?.text ?? '{}').error.code, 'already_decided');
    assert.match(answers.find((answer) => answer.status === 200)?.text ?? '', /TOOL_CALL_RESULT/);
    const results = (await session(b, threadId)).messages.filter(
      (message: Json) => message.role === 'tool' && message.toolCallId === pending.toolCallId,
    );
    assert.equal(results.length, 1, 'one result of the approved call');
    const written = ['a', 'b']
      .map((dir) => join(root, dir, 'workspace', 'twice.txt'))
      .filter((path) => existsSync(path));
    assert.equal(written.length, 1, 'the file was written by one instance');
    assert.equal(readFileSync(written[0] as string, 'utf8'), 'written twice.txt');
    const ran = model.requests.filter((request) =>
      request.body.messages.some(
        (message) => message.role === 'tool' && String(message.content).includes('twice.txt'),
      ),
    );
    assert.equal(ran.length, 1, 'the model saw the result once');
  });

  it('answers on B a client tool call raised on A', async () => {
    const threadId = `t-${randomUUID()}`;
    const tools = [
      {
        name: 'client_weather',
        description: 'the weather of a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
    ];
    const onA = agentOn(a, threadId);
    const events = await run(onA, 'weather in Seoul?', { tools });
    const start = events.find((event) => event.type === 'TOOL_CALL_START');
    assert.deepEqual(events.at(-1).outcome, {
      type: 'success',
      pendingToolCallIds: [start.toolCallId],
    });
    const onB = agentOn(b, threadId, onA.messages);
    onB.addMessage({
      id: randomUUID(),
      role: 'tool',
      toolCallId: start.toolCallId,
      content: '맑음, 21°C',
    });
    const resumed = await run(onB, undefined, { tools });
    const text = resumed
      .filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')
      .map((event) => event.delta)
      .join('');
    assert.equal(text, 'result: 맑음, 21°C');
    const stored = await session(a, threadId);
    assert.deepEqual(stored.interrupts, []);
    assert.equal(stored.messages.at(-1).content, 'result: 맑음, 21°C');
  });
});
