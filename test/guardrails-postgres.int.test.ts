import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import {
  type ChatCompletionRequest,
  type FakeCompletion,
  type FakeOpenAiServer,
  type FakeOtlpCollector,
  makeConfigProject,
  type PostgresServer,
  readEvents,
  type ServeProcess,
  startFakeOpenAiServer,
  startFakeOtlpCollector,
  startPostgresServer,
  startServeProcess,
  yeoulDoor,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-guardrails-postgres-'));

/** `body` followed by its Luhn check digit. */
function luhn(body: string): string {
  let sum = 0;
  for (const [index, digit] of body.split('').reverse().map(Number).entries()) {
    const doubled = index % 2 === 0 ? digit * 2 : digit;
    sum += doubled > 9 ? doubled - 9 : doubled;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/** A 주민등록번호 with its real check digit. */
function rrn(front: string, back6: string): string {
  const digits = `${front}${back6}`.split('').map(Number);
  const weights = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];
  const sum = weights.reduce((total, weight, index) => total + weight * (digits[index] ?? 0), 0);
  return `${front}-${back6}${(11 - (sum % 11)) % 10}`;
}

const grouped = (digits: string, separator: string) =>
  (digits.match(/.{1,4}/g) as string[]).join(separator);

/** The values the turns carry, each with what may hold it afterwards. */
const values = {
  /** Redacted on input on A, restorable: only the vault may hold it. */
  email: 'hong.gildong@example.com',
  phone: '010-2345-6789',
  /** Redacted on input, not restorable: nowhere. */
  rrn: rrn('850315', '123456'),
  /** Blocked on input (pii's default card action), one on each instance: nowhere. */
  cardA: luhn('453914880343646'),
  cardB: luhn('552200000000000'),
  /** Blocked on the SQLite instance's other surfaces: a stream, and /v1 with and without a session. */
  cardStream: luhn('356600200000000'),
  cardV1: luhn('601100000000000'),
  cardV1Session: luhn('37828224631000'),
  /** In the card-blocked message beside the card: redacted, so the vault at most. */
  receiptEmail: 'receipt.kim@example.net',
  /** Matched by a `block` detector (the react graph's input): nowhere. */
  blockedEmail: 'blocked.lee@example.org',
  blockedPhone: '010-9876-5432',
  /** Streamed by the model, redacted on output (unnumbered): nowhere. */
  answerEmail: 'answer.park@example.co.kr',
  answerPhone: '010-5555-1234',
};

/** A pattern for a value: digits may carry spaces, hyphens or dots between them or not. */
function patternOf(value: string): RegExp {
  if (value.includes('@')) return new RegExp(value.replaceAll('.', '\\.'));
  return new RegExp(value.replaceAll(/\D/g, '').split('').join('[ .-]?'));
}

/**
 * The scripted model: "send it" → send_mail to the e-mail placeholder it saw anywhere in
 * the conversation; "contact" → an answer streaming an e-mail address and a phone number
 * split across chunks; after a tool result → "done (…)"; otherwise an echo.
 */
function scripted(request: ChatCompletionRequest, index: number): FakeCompletion {
  const messages = request.body.messages;
  const last = messages.at(-1);
  if (last?.role === 'tool') return { kind: 'text', text: `done (${String(last.content)})` };
  const text = String(last?.content ?? '');
  if (text.includes('send it')) {
    const everything = messages.map((message) => JSON.stringify(message.content)).join('\n');
    const placeholder = /\[EMAIL_\d+\]/.exec(everything)?.[0] ?? 'nobody';
    return {
      kind: 'tool-calls',
      calls: [
        { id: `m-${index}`, name: 'send_mail', arguments: JSON.stringify({ to: placeholder }) },
      ],
    };
  }
  if (text.includes('contact')) {
    const answer = `담당자는 ${values.answerEmail} 이고 전화는 ${values.answerPhone} 입니다`;
    return {
      kind: 'text',
      text: answer,
      chunks: ['담당자는 answer.pa', 'rk@exam', 'ple.co.kr 이고 전화는 010-55', '55-1234 입니다'],
    };
  }
  return { kind: 'text', text: `answer: ${text}` };
}

/** What a model request carried, as one text. */
const sent = (request: ChatCompletionRequest) => JSON.stringify(request.body.messages);

/** One config file for every instance: pii on each stage, send_mail logging what it got. */
const configText = `
import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import { defineConfig } from '${yeoulDoor('config')}';
import { pii } from '${yeoulDoor('guardrails')}';
import { defineTool } from '${yeoulDoor('tools')}';

const sendMail = defineTool({
  name: 'send_mail',
  description: 'Sends a mail',
  inputSchema: z.object({ to: z.string() }),
  async execute({ to }) {
    appendFileSync(new URL('./mailed.log', import.meta.url), to + '\\n');
    return 'sent to ' + to;
  },
});

export default defineConfig({
  tools: [sendMail],
  guardrails: {
    input: [pii()],
    output: [pii()],
    tools: [pii()],
    graphs: { react: { input: [pii({ email: 'block', phone: 'block' })] } },
  },
});
`;

const project = makeConfigProject({ 'yeoul.config.ts': configText });
const mailed = () => {
  const file = join(project, 'mailed.log');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
};

let model: FakeOpenAiServer;
const running = new Set<ServeProcess>();

async function serve(name: string, env: Record<string, string>): Promise<ServeProcess> {
  const server = await startServeProcess(
    join(root, name),
    {
      YEOUL_MODEL: 'compat:scripted',
      YEOUL_COMPAT_BASE_URL: model.baseUrl,
      ...env,
    },
    ['--no-sample', '--config', join(project, 'yeoul.config.ts')],
  );
  running.add(server);
  void server.exited.then(() => running.delete(server));
  return server;
}

async function invoke(server: ServeProcess, body: Record<string, unknown>): Promise<Json> {
  const response = await fetch(`${server.url}/api/agent/invoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Json;
  assert.equal(response.status, 200, JSON.stringify(answer));
  return answer;
}

async function stream(server: ServeProcess, body: Record<string, unknown>) {
  const response = await fetch(`${server.url}/api/agent/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return readEvents(response, (event) => event.event === 'done');
}

async function get(server: ServeProcess, path: string): Promise<Json> {
  const response = await fetch(server.url + path);
  assert.equal(response.status, 200, path);
  return response.json();
}

async function completion(
  server: ServeProcess,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Json> {
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: 'yeoul-chat', ...body }),
  });
  const answer = (await response.json()) as Json;
  assert.equal(response.status, 200, JSON.stringify(answer));
  return answer;
}

/** Every row of every table of the database, as text (bytea decoded too), by table. */
async function rowsOf(url: string): Promise<Map<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
    const texts = new Map<string, string>();
    for (const table of tables) {
      const { rows } = await client.query<{ row: string }>(
        `SELECT t::text AS row FROM ${quote(table.schema)}.${quote(table.name)} t`,
      );
      const text = rows
        .map(({ row }) =>
          // A bytea column reads as \x<hex>: its bytes count too.
          row.replaceAll(/\\\\x([0-9a-f]+)/g, (_whole, hex: string) =>
            Buffer.from(hex, 'hex').toString('latin1'),
          ),
        )
        .join('\n');
      texts.set(table.name, text);
    }
    return texts;
  } finally {
    await client.end();
  }
}

/** The tables whose rows hold `value` (in any of its written forms). */
function holders(tables: Map<string, string>, value: string): string[] {
  const pattern = patternOf(value);
  return [...tables].filter(([, text]) => pattern.test(text)).map(([name]) => name);
}

/** Every file under `folder`, as latin1 text (bytes one for one), by path. */
function filesOf(folder: string): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (path: string) => {
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path)) visit(join(path, name));
    } else files.set(path, readFileSync(path).toString('latin1'));
  };
  visit(folder);
  return files;
}

before(async () => {
  model = await startFakeOpenAiServer(scripted);
});

after(async () => {
  await Promise.all([...running].map((server) => server.kill()));
  await model?.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
});

describe('guardrails on two yeoul serve instances sharing one PostgreSQL', () => {
  let database: PostgresServer;
  let databaseUrl: string;
  let a: ServeProcess;
  let b: ServeProcess;

  before(async () => {
    database = await startPostgresServer();
    databaseUrl = await database.createDatabase();
    [a, b] = await Promise.all([
      serve('a', { DATABASE_URL: databaseUrl }),
      serve('b', { DATABASE_URL: databaseUrl }),
    ]);
  });

  after(async () => {
    await Promise.all([...running].map((server) => server.stop()));
    await database?.stop();
  });

  it('restores on B the placeholder A wrote: the model sees [EMAIL_1], the config’s tool the address', async () => {
    const first = await invoke(a, {
      sessionId: 'shared',
      message: `제 메일은 ${values.email}, 전화는 ${values.phone}, 주민번호는 ${values.rrn} 입니다`,
    });
    assert.equal(first.status, 'published');
    const seen = sent(model.requests.at(-1) as ChatCompletionRequest);
    assert.match(seen, /\[EMAIL_1\].*\[PHONE_1\].*\[RRN\]/);
    for (const value of [values.email, values.phone, values.rrn]) {
      assert.doesNotMatch(seen, patternOf(value));
    }

    const second = await invoke(b, { sessionId: 'shared', message: 'send it 그 주소로 보내줘' });
    assert.equal(second.status, 'published', JSON.stringify(second));
    assert.deepEqual(second.toolsUsed, ['send_mail']);
    assert.deepEqual(mailed(), [values.email], 'the tool on B got the real address');
    const requests = model.requests.slice(-2).map(sent).join('\n');
    assert.match(requests, /"name":"send_mail","arguments":"\{\\"to\\":\\"\[EMAIL_1\]\\"\}"/);
    assert.match(requests, /sent to \[EMAIL_1\]/, 'the result reaches the model redacted');
    assert.doesNotMatch(requests, patternOf(values.email));
    assert.match(second.response, /done \(sent to \[EMAIL_1\]\)/);
  });

  it('blocks a Luhn-valid card on either instance with no model call', async () => {
    const before = model.requests.length;
    const onA = await invoke(a, {
      sessionId: 'card-a',
      message: `카드 ${grouped(values.cardA, ' ')} 로 결제하고 영수증은 ${values.receiptEmail} 로`,
    });
    const onB = await invoke(b, {
      sessionId: 'card-b',
      message: `카드 ${grouped(values.cardB, '-')} 결제`,
    });
    for (const body of [onA, onB]) {
      assert.equal(body.status, 'blocked');
      assert.equal(body.guardrail.name, 'pii');
      assert.equal(body.guardrail.stage, 'input');
      assert.match(body.guardrail.reason, /^card\b/);
      assert.equal(body.usage.llmCalls, 0);
    }
    const blocked = await invoke(b, {
      sessionId: 'blocked-contact',
      message: `연락처 ${values.blockedEmail} 또는 ${values.blockedPhone}`,
      options: { graph: 'react' },
    });
    assert.equal(blocked.status, 'blocked');
    assert.equal(blocked.guardrail.name, 'pii');
    assert.equal(model.requests.length, before, 'no model request');
    for (const body of [onA, onB, blocked]) {
      const text = JSON.stringify(body);
      for (const value of [values.cardA, values.cardB, values.blockedEmail, values.blockedPhone]) {
        assert.doesNotMatch(text, patternOf(value));
      }
    }
  });

  it('redacts an answer streamed on B before it is sent or stored', async () => {
    const events = await stream(b, { sessionId: 'shared', message: 'contact 알려줘' });
    const tokens = events
      .filter((event) => event.event === 'token')
      .map((event) => (event.data as Json).text)
      .join('');
    assert.match(tokens, /\[EMAIL\].*\[PHONE\]/);
    for (const value of [values.answerEmail, values.answerPhone]) {
      assert.doesNotMatch(JSON.stringify(events), patternOf(value));
    }
  });

  it('shows placeholders in the title, the messages and the history, and marks the block', async () => {
    for (const server of [a, b]) {
      const list = await get(server, '/api/sessions');
      const shared = list.sessions.find((session: Json) => session.sessionId === 'shared');
      assert.match(shared.title, /\[EMAIL_1\]/);
      const everything = JSON.stringify([
        list,
        await get(server, '/api/sessions/shared'),
        await get(server, '/api/sessions/shared/history'),
        await get(server, '/api/sessions/card-a'),
        await get(server, '/api/sessions/card-a/history'),
        await get(server, '/api/sessions/card-b/history'),
        await get(server, '/api/sessions/blocked-contact/history'),
      ]);
      for (const value of Object.values(values)) {
        assert.doesNotMatch(everything, patternOf(value), value);
      }
    }
    const card = await get(b, '/api/sessions/card-a');
    const [user, refusal] = card.messages;
    assert.equal(user.blocked, true);
    assert.match(user.content, /\[CARD\]/);
    assert.match(user.content, /\[EMAIL_1\]/);
    assert.equal(refusal.blocked, true);
    assert.equal(refusal.role, 'assistant');
    const history = await get(b, '/api/sessions/card-a/history');
    assert.deepEqual(
      history.steps.map((step: Json) => step.node),
      ['input', 'guardrail'],
    );
    const acted = history.steps[1].update.guardrails;
    assert.deepEqual(
      acted.map((record: Json) => [record.name, record.stage, record.action, record.reason]),
      [['pii', 'input', 'block', 'card, email (redact)']],
    );
  });

  it('leaves no table holding a matched value, but the vault holding the restorable ones', async () => {
    const tables = await rowsOf(databaseUrl);
    assert.ok(tables.has('guardrail_vault'));
    for (const value of [values.email, values.phone]) {
      assert.deepEqual(holders(tables, value), ['guardrail_vault'], value);
    }
    const receipt = holders(tables, values.receiptEmail).filter(
      (name) => name !== 'guardrail_vault',
    );
    assert.deepEqual(receipt, [], values.receiptEmail);
    for (const value of [
      values.rrn,
      values.cardA,
      values.cardB,
      values.blockedEmail,
      values.blockedPhone,
      values.answerEmail,
      values.answerPhone,
    ]) {
      assert.deepEqual(holders(tables, value), [], value);
    }
    // Nor does any file of either instance's data folder hold a card.
    for (const [path, bytes] of [...filesOf(join(root, 'a')), ...filesOf(join(root, 'b'))]) {
      for (const value of [values.cardA, values.cardB]) {
        assert.ok(!patternOf(value).test(bytes), `${path} holds ${value}`);
      }
    }
  });

  it('restores the original’s placeholders in a fork taken on B, run on A', async () => {
    const history = await get(b, '/api/sessions/shared/history');
    const atStep = history.steps.at(-1).step;
    const response = await fetch(`${b.url}/api/sessions/shared/fork`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ atStep, sessionId: 'shared-fork' }),
    });
    assert.equal(response.status, 201);
    const mailedBefore = mailed().length;
    const body = await invoke(a, { sessionId: 'shared-fork', message: 'send it 다시 보내줘' });
    assert.deepEqual(body.toolsUsed, ['send_mail']);
    assert.deepEqual(mailed().slice(mailedBefore), [values.email]);
  });

  it('deletes the session’s vault rows in PostgreSQL with the session', async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const count = async () =>
        (
          await client.query<{ count: string }>(
            'SELECT count(*) FROM guardrail_vault WHERE session_id = $1',
            ['shared'],
          )
        ).rows[0]?.count;
      assert.equal(await count(), '2');
      const response = await fetch(`${b.url}/api/sessions/shared`, { method: 'DELETE' });
      assert.equal(response.status, 204);
      assert.equal(await count(), '0');
    } finally {
      await client.end();
    }
  });
});

describe('guardrails on one SQLite instance, traced with YEOUL_TRACE_CONTENT=1', () => {
  let collector: FakeOtlpCollector;
  let server: ServeProcess;
  let output = '';
  const dataDir = join(root, 'sqlite');

  before(async () => {
    collector = await startFakeOtlpCollector();
    server = await serve('sqlite', {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      YEOUL_TRACE_CONTENT: '1',
      LOG_LEVEL: 'info',
    });
    for (const pipe of [server.child.stdout, server.child.stderr]) {
      pipe.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
    }
    const first = await invoke(server, {
      sessionId: 'local',
      message: `제 메일은 ${values.email}, 전화는 ${values.phone}, 주민번호는 ${values.rrn} 입니다`,
    });
    assert.equal(first.status, 'published');
    const mailedBefore = mailed().length;
    const second = await invoke(server, { sessionId: 'local', message: 'send it 보내줘' });
    assert.deepEqual(second.toolsUsed, ['send_mail']);
    assert.equal(mailed().length, mailedBefore + 1);
    assert.equal(mailed().at(-1), values.email);
    await stream(server, { sessionId: 'local', message: 'contact 알려줘' });
    const card = await invoke(server, {
      sessionId: 'local-card',
      message: `카드 ${values.cardA} 결제, 영수증은 ${values.receiptEmail}`,
    });
    assert.equal(card.status, 'blocked');
    const streamed = await stream(server, {
      sessionId: 'local-stream',
      message: `카드 ${grouped(values.cardStream, '-')} 결제`,
    });
    const done = streamed.find((event) => event.event === 'done')?.data as Json;
    assert.equal(done?.status, 'blocked');
    assert.ok(streamed.some((event) => event.event === 'guardrail'));
    assert.ok(!streamed.some((event) => event.event === 'token'));
    const earlier = await completion(server, {
      messages: [
        { role: 'user', content: `카드 ${values.cardV1} 기억해` },
        { role: 'assistant', content: '네' },
        { role: 'user', content: '결제해줘' },
      ],
    });
    assert.equal(earlier.choices[0].finish_reason, 'content_filter');
    const withSession = await completion(
      server,
      { messages: [{ role: 'user', content: `카드 ${grouped(values.cardV1Session, ' ')}` }] },
      { 'x-session-id': 'local-v1' },
    );
    assert.equal(withSession.choices[0].finish_reason, 'content_filter');
    const blocked = await invoke(server, {
      sessionId: 'local-blocked',
      message: `연락처 ${values.blockedEmail}`,
      options: { graph: 'react' },
    });
    assert.equal(blocked.status, 'blocked');
    await server.stop(); // flushes the spans and closes the files
  });

  after(async () => {
    await collector?.close();
  });

  it('leaves a blocked card in no file of the data folder', () => {
    const files = filesOf(dataDir);
    assert.ok([...files.keys()].some((path) => path.endsWith('.sqlite')));
    for (const [path, bytes] of files) {
      for (const value of [
        values.cardA,
        values.cardStream,
        values.cardV1,
        values.cardV1Session,
        values.blockedEmail,
        values.answerEmail,
        values.rrn,
      ]) {
        assert.ok(!patternOf(value).test(bytes), `${path} holds ${value}`);
      }
    }
  });

  it('exports no span attribute holding a matched value', () => {
    const names = collector.spans.map((span) => span.name);
    assert.ok(names.includes('chat scripted'), names.join(', '));
    assert.ok(names.includes('execute_tool send_mail'), names.join(', '));
    const everything = JSON.stringify(collector.spans);
    for (const value of Object.values(values)) {
      assert.doesNotMatch(everything, patternOf(value), value);
    }
  });

  it('logs no matched value', () => {
    assert.match(output, /"guardrail":"pii"/);
    for (const value of Object.values(values)) {
      assert.doesNotMatch(output, patternOf(value), value);
    }
  });
});
