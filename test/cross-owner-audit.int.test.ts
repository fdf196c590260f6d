import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import pg from 'pg';
import { profileExtractorPrompt, routerPrompt } from '../src/agents/index.ts';
import type { YeoulConfig } from '../src/config/index.ts';
import { defineState, END, interrupt, replace, START, StateGraph } from '../src/graph/index.ts';
import { ownWorkspaceFolder } from '../src/identity/index.ts';
import type { Runtime } from '../src/server/index.ts';
import {
  type ChatCompletionRequest,
  type FakeCompletion,
  type FakeIdentityProvider,
  type FakeOpenAiServer,
  hs256Token,
  lastUserText,
  type PostgresServer,
  runYeoul,
  type ServeProcess,
  startFakeIdentityProvider,
  startFakeOpenAiServer,
  startPostgresServer,
  startServeProcess,
  waitUntil,
} from '../src/testing/internal/index.ts';
import { startTestServer, type TestServer } from '../src/testing/internal/test-server.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-cross-owner-'));
after(() => rmSync(root, { recursive: true, force: true }));

const secret = 'cross-owner-secret-of-more-than-32-bytes';
const key = 'team-key-3c9e1f';
const adminKey = 'admin-key-77d0a2';

/**
 * The model every test talks to: the profile extractor finds "내 이름은 X"; "write F C"
 * calls write_file, "read F" read_file; after tool results it answers `done (results)`;
 * otherwise `answer: …`, naming the profile's name when the system prompt holds one.
 * "slow …" answers after 1.5 s.
 */
function scripted(request: ChatCompletionRequest): FakeCompletion {
  const system = request.body.messages
    .filter((message) => message.role === 'system')
    .map((message) => String(message.content))
    .join('\n');
  const said = lastUserText(request);
  if (request.body.response_format) {
    if (system.includes(profileExtractorPrompt)) {
      const name = /내 이름은 (\S+?)야/.exec(said)?.[1];
      return {
        kind: 'text',
        text: JSON.stringify({ facts: name ? [{ key: 'name', value: name }] : [] }),
      };
    }
    if (system.includes(routerPrompt))
      return { kind: 'text', text: '{"route":"agent","reason":"chat"}' };
    return { kind: 'text', text: '{"score": 0.9, "feedback": ""}' };
  }
  const messages = request.body.messages;
  if (messages.at(-1)?.role === 'tool') {
    const results = messages
      .slice(messages.findLastIndex((message) => message.role === 'assistant') + 1)
      .map((message) => String(message.content));
    return { kind: 'text', text: `done (${results.join(' | ')})` };
  }
  const write = /^write (\S+) (\S+)/.exec(said);
  if (write) {
    const args = JSON.stringify({ path: write[1], content: write[2] });
    return {
      kind: 'tool-calls',
      calls: [{ id: `w-${messages.length}`, name: 'write_file', arguments: args }],
    };
  }
  const read = /^read (\S+)/.exec(said);
  if (read) {
    const args = JSON.stringify({ path: read[1] });
    return {
      kind: 'tool-calls',
      calls: [{ id: `r-${messages.length}`, name: 'read_file', arguments: args }],
    };
  }
  const name = /- name: (\S+)/.exec(system)?.[1];
  return { kind: 'text', text: `answer: ${said}${name ? ` (name: ${name})` : ''}` };
}

/** What a request got: status, error code, body (JSON or text), WWW-Authenticate. */
interface Reply {
  status: number;
  code: string | undefined;
  body: Json;
  challenge: string | null;
}

type Caller = (
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<Reply>;

/** A caller of `url` with `credential` (and `always`) on every request. */
function as(url: string, credential: string, always: Record<string, string> = {}): Caller {
  return async (method, path, body, headers = {}) => {
    const response = await fetch(url + path, {
      method,
      headers: {
        authorization: `Bearer ${credential}`,
        ...always,
        ...headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const json = text.startsWith('{') ? (JSON.parse(text) as Json) : text;
    return {
      status: response.status,
      code: typeof json === 'object' ? json?.error?.code : undefined,
      body: json,
      challenge: response.headers.get('www-authenticate'),
    };
  };
}

/** Both end users' tokens: HS256, and (B) RS256 from the JWK Set file too. */
async function tokens(idp: FakeIdentityProvider) {
  const hs = (sub: string) => hs256Token(secret, { sub, aud: 'yeoul' });
  return {
    alice: await hs('alice'),
    aliceRs: await idp.sign({ sub: 'alice', aud: 'yeoul' }),
    bob: await hs('bob'),
    bobRs: await idp.sign({ sub: 'bob', aud: 'yeoul' }),
  };
}

/** The end-user settings every server and command of these tests runs with. */
function identityEnv(jwksFile: string, model: FakeOpenAiServer): Record<string, string> {
  return {
    YEOUL_API_KEYS: key,
    YEOUL_ADMIN_KEYS: adminKey,
    YEOUL_JWT_SECRET: secret,
    YEOUL_JWT_JWKS: jwksFile,
    YEOUL_JWT_AUDIENCE: 'yeoul',
    YEOUL_MODEL: 'compat:scripted',
    YEOUL_COMPAT_BASE_URL: model.baseUrl,
    YEOUL_SAMPLE_KNOWLEDGE: 'false',
  };
}

/** A config file's graph that asks a question before it finishes, and a hook naming `x-user`. */
const config = {
  auth: {
    authenticate: (request: { headers: Record<string, string> }) =>
      request.headers['x-user'] ? { owner: request.headers['x-user'] } : null,
  },
  graphs: {
    asker: new StateGraph(defineState({ topic: replace(''), answer: replace('') }))
      .addNode('ask', (_state, context) => {
        const answer = Object.values(context.resume?.answers ?? {})[0];
        if (answer === undefined) return interrupt([{ key: 'q', value: 'go on?' }]);
        return { answer: String(answer) };
      })
      .addEdge(START, 'ask')
      .addEdge('ask', END),
  },
} as unknown as YeoulConfig;

/** What A made: a conversation, a run waiting for approval, a memory item and an eval run. */
interface AliceThings {
  sessions: string[];
  pendingId: string;
  evalRunId: string;
}

/** A makes her things through `alice`: each one works for her. */
async function makeAliceThings(alice: Caller): Promise<AliceThings> {
  const chat = await alice('POST', '/api/agent/invoke', {
    message: '안녕, 내 이름은 철수야',
    sessionId: 'a-chat',
  });
  assert.equal(chat.status, 200, JSON.stringify(chat.body));
  const paused = await alice('POST', '/api/agent/invoke', {
    message: 'write plan.txt alice-plan',
    sessionId: 'a-pending',
  });
  assert.equal(paused.body.status, 'interrupted');
  const pendingId = paused.body.interrupts[0].id as string;
  assert.equal((await alice('PUT', '/api/memory/notes/plan', { value: 'ski trip' })).status, 200);
  const started = await alice('POST', '/api/evals', {
    name: 'alice-run',
    items: [{ id: 'greet', input: 'hello there', expected: 'hello' }],
  });
  assert.equal(started.status, 202);
  const evalRunId = started.body.id as string;
  await waitUntil(
    async () => (await alice('GET', `/api/evals/${evalRunId}`)).body.status === 'done',
    'A’s eval run done',
  );
  const listed = (await alice('GET', '/api/sessions')).body.sessions as Json[];
  return { sessions: listed.map((session) => session.sessionId), pendingId, evalRunId };
}

/** Every way B may name A's things, each beside the same request on an id that never was. */
async function probeAsB(bob: Caller, things: AliceThings, mcpUrl: string, bobToken: string) {
  const missing = 'never-was';
  const same = (other: Reply, none: Reply, what: string) => {
    assert.equal(other.status, 404, `${what}: ${JSON.stringify(other.body)}`);
    assert.deepEqual([other.status, other.code], [none.status, none.code], what);
  };
  for (const id of things.sessions) {
    for (const [method, path, body] of [
      ['GET', '/api/sessions/{id}'],
      ['GET', '/api/sessions/{id}/history'],
      ['GET', '/api/sessions/{id}/stream'],
      ['POST', '/api/sessions/{id}/cancel'],
      ['POST', '/api/sessions/{id}/fork', { atStep: -1 }],
      ['POST', '/api/sessions/{id}/feedback', { rating: -1 }],
      ['DELETE', '/api/sessions/{id}/interrupts'],
      ['DELETE', '/api/sessions/{id}'],
    ] as Array<[string, string, unknown?]>) {
      same(
        await bob(method, path.replace('{id}', id), body),
        await bob(method, path.replace('{id}', missing), body),
        `${method} ${path} on ${id}`,
      );
    }
  }
  same(
    await bob('GET', `/api/evals/${things.evalRunId}`),
    await bob('GET', `/api/evals/${missing}`),
    'GET /api/evals/:id',
  );
  for (const method of ['GET', 'DELETE']) {
    same(
      await bob(method, '/api/memory/notes/plan'),
      await bob(method, '/api/memory/notes/never-was'),
      `${method} /api/memory/notes/plan`,
    );
  }
  // Naming A's session as the one to run in: 404, nothing made, run or sent.
  const decisions = [{ id: things.pendingId, approve: true }];
  for (const [path, body] of [
    ['/api/agent/invoke', { message: 'what did she say?', sessionId: 'a-chat' }],
    ['/api/agent/stream', { message: 'what did she say?', sessionId: 'a-chat' }],
    ['/api/agent/invoke', { sessionId: 'a-pending', resume: { decisions } }],
    ['/api/agent/stream', { sessionId: 'a-pending', resume: { decisions } }],
    ['/api/agent/invoke', { sessionId: missing, resume: { decisions } }],
  ] as Array<[string, unknown]>) {
    const answer = await bob('POST', path, body);
    assert.deepEqual(
      [answer.status, answer.code],
      [404, 'not_found'],
      `${path} ${JSON.stringify(body)}`,
    );
  }
  const completion = await bob(
    'POST',
    '/v1/chat/completions',
    { model: 'yeoul-chat', messages: [{ role: 'user', content: 'what did she say?' }] },
    { 'x-session-id': 'a-chat' },
  );
  assert.equal(completion.status, 404);
  assert.equal(completion.body.error.code, 'not_found');
  const mcp = new Client({ name: 'cross-owner', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${bobToken}` } },
    }),
  );
  try {
    const asked = (await mcp.callTool({
      name: 'ask',
      arguments: { message: 'what did she say?', sessionId: 'a-chat' },
    })) as Json;
    assert.equal(asked.isError, true);
    assert.match(asked.content[0].text, /no session "a-chat"/);
  } finally {
    await mcp.close();
  }
  // Nothing of A's is listed to B.
  assert.deepEqual((await bob('GET', '/api/sessions')).body.sessions, []);
  assert.deepEqual((await bob('GET', '/api/evals')).body.runs, []);
  for (const query of ['', '?prefix=notes', '?query=ski', '?prefix=profile&query=철수']) {
    assert.deepEqual((await bob('GET', `/api/memory${query}`)).body.items, [], query);
  }
}

/** Writes `file` through the agent as `caller`, approving the call. */
async function writeApproved(caller: Caller, sessionId: string, file: string, content: string) {
  const wrote = await caller('POST', '/api/agent/invoke', {
    message: `write ${file} ${content}`,
    sessionId,
  });
  assert.equal(wrote.body.status, 'interrupted', JSON.stringify(wrote.body));
  const decided = await caller('POST', '/api/agent/invoke', {
    sessionId,
    resume: { decisions: [{ id: wrote.body.interrupts[0].id, approve: true }] },
  });
  assert.equal(decided.body.status, 'published', JSON.stringify(decided.body));
}

/** A's things as she sees them: sessions, their histories' lengths, the pending call, memory. */
async function aliceView(alice: Caller, things: AliceThings) {
  const histories: Record<string, number> = {};
  for (const id of things.sessions) {
    histories[id] = (await alice('GET', `/api/sessions/${id}/history`)).body.steps.length;
  }
  return {
    sessions: ((await alice('GET', '/api/sessions')).body.sessions as Json[])
      .map((session) => session.sessionId)
      .sort(),
    histories,
    pending: (await alice('GET', '/api/sessions/a-pending')).body.interrupts,
    graph: things.sessions.includes('a-graph')
      ? (await alice('GET', '/api/sessions/a-graph')).body.status
      : undefined,
    memory: (await alice('GET', '/api/memory/notes/plan')).body.value,
    evalRun: (await alice('GET', `/api/evals/${things.evalRunId}`)).body.status,
  };
}

describe('what is whose: B tries every route and surface on A’s things (one server)', () => {
  let model: FakeOpenAiServer;
  let idp: FakeIdentityProvider;
  let served: TestServer;
  let runtime: Runtime;
  let env: Record<string, string>;
  let token: Awaited<ReturnType<typeof tokens>>;
  let alice: Caller;
  let bob: Caller;
  let bobRs: Caller;
  let keyed: Caller;
  let admin: Caller;
  let things: AliceThings;
  const cli = (args: string[], input?: string) =>
    runYeoul([...args, '--data', served.dataDir], {
      env,
      timeoutMs: 60_000,
      ...(input === undefined ? {} : { input }),
    });

  before(async () => {
    model = await startFakeOpenAiServer(scripted, {
      delayMs: (request) => (lastUserText(request).startsWith('slow') ? 1500 : 0),
    });
    idp = await startFakeIdentityProvider();
    const jwksFile = join(root, 'jwks.json');
    idp.writeJwksFile(jwksFile);
    env = identityEnv(jwksFile, model);
    served = await startTestServer(mkdtempSync(join(root, 'data-')), env, { config });
    runtime = served.runtime;
    token = await tokens(idp);
    const url = served.server.url;
    alice = as(url, token.alice);
    bob = as(url, token.bob);
    bobRs = as(url, token.bobRs);
    keyed = as(url, key);
    admin = as(url, adminKey);
    const asked = await alice('POST', '/api/graphs/asker/invoke', {
      threadId: 'a-graph',
      input: { topic: 'ski' },
    });
    assert.equal(asked.body.status, 'interrupted', JSON.stringify(asked.body));
    things = await makeAliceThings(alice);
  });
  after(async () => {
    await served.server.close();
    await model.close();
    await idp.close();
  });

  it('names one owner per end user, whichever key signed the token', async () => {
    assert.equal((await bob('GET', '/api/me')).body.owner, 'jwt:bob');
    assert.equal((await bobRs('GET', '/api/me')).body.owner, 'jwt:bob');
    const aliceRs = as(served.server.url, token.aliceRs);
    assert.deepEqual(
      ((await aliceRs('GET', '/api/sessions')).body.sessions as Json[])
        .map((s) => s.sessionId)
        .sort(),
      [...things.sessions].sort(),
    );
  });

  it('answers B on A’s things exactly as on missing ones, and creates, runs and sends nothing', async () => {
    const seen = await aliceView(alice, things);
    const threads = (await runtime.checkpointer.listThreads()).length;
    const requests = model.requests.length;
    for (const [caller, credential] of [
      [bob, token.bob],
      [bobRs, token.bobRs],
    ] as const) {
      await probeAsB(caller, things, `${served.server.url}/mcp`, credential);
      for (const [path, body] of [
        ['/api/graphs/asker/invoke', { threadId: 'a-graph', input: { topic: 'x' } }],
        ['/api/graphs/asker/stream', { threadId: 'a-graph', input: { topic: 'x' } }],
        ['/api/graphs/asker/invoke', { threadId: 'a-graph', resume: { answers: { q: 'yes' } } }],
        ['/api/graphs/asker/stream', { threadId: 'a-graph', resume: { answers: { q: 'yes' } } }],
      ] as Array<[string, unknown]>) {
        const answer = await caller('POST', path, body);
        assert.deepEqual([answer.status, answer.code], [404, 'not_found'], path);
      }
    }
    assert.equal(model.requests.length, requests, 'nothing was sent to the model');
    assert.equal((await runtime.checkpointer.listThreads()).length, threads, 'no thread made');
    assert.deepEqual(await runtime.sessions.owned('jwt:bob'), [], 'no session registered for B');
    assert.deepEqual(await aliceView(alice, things), seen, 'A’s things are as they were');
    assert.equal(seen.pending.length, 1, 'A’s call still waits for her decision');
  });

  it('keeps a running run of A’s from B: no rejoining, no cancelling', async () => {
    const stream = alice('POST', '/api/agent/stream', { message: 'slow one', sessionId: 'a-slow' });
    await waitUntil(
      async () => (await alice('GET', '/api/sessions/a-slow')).body?.status === 'running',
      'A’s run going',
    );
    for (const path of ['/api/sessions/{id}/stream', '/api/sessions/{id}/cancel']) {
      const method = path.endsWith('cancel') ? 'POST' : 'GET';
      const other = await bob(method, path.replace('{id}', 'a-slow'));
      const none = await bob(method, path.replace('{id}', 'never-was'));
      assert.deepEqual([other.status, other.code], [404, 'not_found'], path);
      assert.deepEqual([other.status, other.code], [none.status, none.code], path);
    }
    const done = await stream;
    assert.match(String(done.body), /event: done[\s\S]*"status":"published"/);
  });

  it('gives each end user a workspace of their own; keys keep the whole one', async () => {
    await writeApproved(alice, 'a-files', 'notes.txt', 'alice-notes');
    await writeApproved(keyed, 'k-files', 'shared.txt', 'team-notes');
    assert.equal(
      readFileSync(join(served.dataDir, 'workspace', 'shared.txt'), 'utf8'),
      'team-notes',
    );
    const folder = join(served.dataDir, 'workspaces', ownWorkspaceFolder('jwt:alice') as string);
    assert.equal(readFileSync(join(folder, 'notes.txt'), 'utf8'), 'alice-notes');
    assert.equal(existsSync(join(served.dataDir, 'workspace', 'notes.txt')), false);
    const mine = await alice('POST', '/api/agent/invoke', { message: 'read notes.txt' });
    assert.match(mine.body.response, /alice-notes/);
    for (const [who, caller] of [
      ['B', bob],
      ['B (RS256)', bobRs],
      ['a key', keyed],
    ] as const) {
      const read = await caller('POST', '/api/agent/invoke', { message: 'read notes.txt' });
      assert.equal(read.status, 200);
      assert.doesNotMatch(read.body.response, /alice-notes/, who);
      assert.match(read.body.response, /does not exist/, who);
    }
    assert.match(
      (await keyed('POST', '/api/agent/invoke', { message: 'read shared.txt' })).body.response,
      /team-notes/,
    );
    for (const file of ['notes.txt', 'shared.txt']) {
      const message = `read ${file}`;
      const read = await bob('POST', '/api/agent/invoke', { message });
      assert.match(read.body.response, /does not exist/, file);
      // Stateless /v1 runs in B's folder too.
      const stateless = await bob('POST', '/v1/chat/completions', {
        model: 'yeoul-chat',
        messages: [{ role: 'user', content: message }],
      });
      assert.match(stateless.body.choices[0].message.content, /does not exist/, file);
    }
    // An end user of the config's hook has a folder of their own too.
    const dana = as(served.server.url, 'no-key', { 'x-user': 'dana' });
    assert.equal((await dana('GET', '/api/me')).body.owner, 'hook:dana');
    await writeApproved(dana, 'd-files', 'notes.txt', 'dana-notes');
    const danas = join(served.dataDir, 'workspaces', ownWorkspaceFolder('hook:dana') as string);
    assert.equal(readFileSync(join(danas, 'notes.txt'), 'utf8'), 'dana-notes');
    assert.match(
      (await dana('POST', '/api/agent/invoke', { message: 'read shared.txt' })).body.response,
      /does not exist/,
    );
    // B's approved write lands in B's folder; A's file stays hers.
    await writeApproved(bob, 'b-files', 'notes.txt', 'bob-notes');
    const bobs = join(served.dataDir, 'workspaces', ownWorkspaceFolder('jwt:bob') as string);
    assert.equal(readFileSync(join(bobs, 'notes.txt'), 'utf8'), 'bob-notes');
    assert.equal(readFileSync(join(folder, 'notes.txt'), 'utf8'), 'alice-notes');
    // A's eval items run in her workspace too.
    const evaluated = await alice('POST', '/api/evals', {
      items: [{ id: 'file', input: 'read notes.txt', expected: 'alice-notes' }],
    });
    await waitUntil(
      async () => (await alice('GET', `/api/evals/${evaluated.body.id}`)).body.status === 'done',
      'eval done',
    );
    const run = (await alice('GET', `/api/evals/${evaluated.body.id}`)).body;
    assert.equal(run.items[0].passed, true, JSON.stringify(run.items[0]));
  });

  it('gives A’s profile to A’s new sessions only, never B’s, a key’s or the admin’s', async () => {
    const profile = (await alice('GET', '/api/memory?prefix=profile')).body.items as Json[];
    assert.deepEqual(
      profile.map((item) => [item.key, item.value]),
      [['name', '철수']],
    );
    const question = { message: '내 이름이 뭐라고 했지?' };
    assert.match(
      (await alice('POST', '/api/agent/invoke', question)).body.response,
      /\(name: 철수\)/,
    );
    for (const caller of [bob, bobRs, keyed, admin]) {
      const answer = await caller('POST', '/api/agent/invoke', question);
      assert.equal(answer.status, 200);
      assert.doesNotMatch(answer.body.response, /철수/);
    }
    for (const caller of [bob, keyed, admin]) {
      assert.deepEqual((await caller('GET', '/api/memory?prefix=profile')).body.items, []);
    }
  });

  it('lets the admin key read none of their conversations, and prune across owners', async () => {
    const own = await admin('POST', '/api/agent/invoke', {
      message: 'admin here',
      sessionId: 'adm-1',
    });
    assert.equal(own.status, 200);
    const listed = ((await admin('GET', '/api/sessions')).body.sessions as Json[]).map(
      (s) => s.sessionId,
    );
    assert.ok(listed.includes('adm-1'));
    assert.ok(!listed.some((id) => id.startsWith('a-')), 'none of A’s sessions');
    for (const path of [
      '/api/sessions/a-chat',
      '/api/sessions/a-chat/history',
      '/api/memory/notes/plan',
      `/api/evals/${things.evalRunId}`,
    ]) {
      assert.equal((await admin('GET', path)).status, 404, path);
    }
    // Pruning: one's own for everyone; another owner's, or every owner's, for admins only.
    const prune = (caller: Caller, body: Json) => caller('POST', '/api/sessions/prune', body);
    const bobs = (await bob('GET', '/api/sessions')).body.sessions.length as number;
    assert.ok(bobs > 0);
    assert.deepEqual((await prune(bob, { olderThan: '0s', dryRun: true })).body, {
      removed: bobs,
      keptAwaitingApproval: 0,
      dryRun: true,
    });
    for (const [caller, owner] of [
      [bob, 'jwt:alice'],
      [bob, '*'],
      [keyed, '*'],
    ] as const) {
      const refused = await prune(caller, { olderThan: '0s', owner });
      assert.deepEqual([refused.status, refused.code], [403, 'insufficient_scope'], owner);
      assert.equal(refused.challenge, 'Bearer error="insufficient_scope", scope="yeoul:admin"');
    }
    assert.equal((await prune(admin, { olderThan: '0s', owner: 'bob' })).status, 400);
    assert.equal((await prune(admin, { olderThan: 'soon' })).status, 400);
    const everyone = await prune(admin, { olderThan: '0s', dryRun: true, owner: '*' });
    assert.equal(everyone.status, 200);
    assert.ok(everyone.body.removed > bobs);
    assert.equal(everyone.body.keptAwaitingApproval, 2, 'A’s pending approval and graph question');
    const pruned = await prune(admin, { olderThan: '0s', owner: 'jwt:bob' });
    assert.deepEqual(pruned.body, { removed: bobs, keptAwaitingApproval: 0, dryRun: false });
    assert.deepEqual((await bob('GET', '/api/sessions')).body.sessions, []);
    assert.ok((await alice('GET', '/api/sessions')).body.sessions.length >= things.sessions.length);
    assert.equal((await alice('GET', '/api/sessions/a-chat')).status, 200);
  });

  it('acts as --token on the command line exactly as the API does', async () => {
    const requests = model.requests.length;
    const refused = await cli(['ask', 'hi', '--token', 'not.a.token']);
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr.trim().split('\n').length, 1);
    assert.match(refused.stderr, /--token was refused/);
    const other = await cli([
      'ask',
      'what did she say?',
      '--session',
      'a-chat',
      '--token',
      token.bob,
    ]);
    assert.equal(other.code, 1);
    assert.match(other.stderr, /no session "a-chat"/);
    const shown = await cli(['sessions', 'show', 'a-chat', '--token', token.bobRs]);
    const none = await cli(['sessions', 'show', 'never-was', '--token', token.bobRs]);
    assert.equal(shown.code, 1);
    assert.equal(shown.stderr.replace('a-chat', 'ID'), none.stderr.replace('never-was', 'ID'));
    for (const action of [['delete'], ['resume'], ['abandon'], ['fork', '--at-step=-1']]) {
      const [verb, ...rest] = action;
      const tried = await cli([
        'sessions',
        verb as string,
        'a-pending',
        ...rest,
        '--token',
        token.bob,
      ]);
      assert.equal(tried.code, 1, verb);
      assert.match(tried.stderr, /there is no session "a-pending"/, verb);
    }
    const memory = await cli(['memory', 'get', 'notes', 'plan', '--token', token.bob]);
    assert.equal(memory.code, 1);
    const listed = await cli(['sessions', 'list', '--json', '--token', token.bob]);
    const bobs = (JSON.parse(listed.stdout).sessions as Json[]).map((session) => session.sessionId);
    assert.deepEqual(
      bobs.filter((id) => id.startsWith('a-')),
      [],
    );
    assert.equal(model.requests.length, requests, 'nothing was sent to the model');
    assert.equal((await alice('GET', '/api/sessions/a-pending')).body.interrupts.length, 1);
    // A's token: her sessions, her workspace, her profile; what she makes is the API's too.
    const hers = await cli(['sessions', 'list', '--json', '--token', token.aliceRs]);
    const api = ((await alice('GET', '/api/sessions')).body.sessions as Json[]).map(
      (s) => s.sessionId,
    );
    assert.deepEqual(
      (JSON.parse(hers.stdout).sessions as Json[]).map((s) => s.sessionId).sort(),
      [...api].sort(),
    );
    const asked = await cli([
      'ask',
      'read notes.txt',
      '--session',
      'a-cli',
      '--token',
      token.alice,
    ]);
    assert.equal(asked.code, 0, asked.stderr);
    assert.match(asked.stdout, /alice-notes/);
    assert.equal((await alice('GET', '/api/sessions/a-cli')).status, 200);
    assert.equal((await bob('GET', '/api/sessions/a-cli')).status, 404);
    const name = await cli(['ask', '내 이름이 뭐라고 했지?', '--token', token.alice]);
    assert.match(name.stdout, /\(name: 철수\)/);
    // chat and eval act as the token's owner too.
    const chatted = await cli(['chat', '--session', 'a-chat', '--token', token.bob], 'hello?\n');
    assert.equal(chatted.code, 1);
    assert.match(chatted.stderr, /no session "a-chat"/);
    assert.equal((await alice('GET', '/api/sessions/a-chat/history')).status, 200);
    const chat = await cli(
      ['chat', '--session', 'a-term', '--token', token.alice],
      'read notes.txt\n',
    );
    assert.equal(chat.code, 0, chat.stderr);
    assert.match(chat.stdout, /alice-notes/);
    const dataset = join(root, 'dataset.jsonl');
    writeFileSync(
      dataset,
      `${JSON.stringify({ id: 'f', input: 'read notes.txt', expected: 'alice-notes' })}\n`,
    );
    const evaluated = await cli([
      'eval',
      dataset,
      '--name',
      'cli-run',
      '--json',
      '--token',
      token.alice,
    ]);
    assert.equal(evaluated.code, 0, evaluated.stderr);
    const run = JSON.parse(evaluated.stdout);
    assert.equal((await alice('GET', `/api/evals/${run.id}`)).body.name, 'cli-run');
    assert.equal((await bob('GET', `/api/evals/${run.id}`)).status, 404);
    const compared = await cli(['eval', 'compare', 'cli-run', 'cli-run', '--token', token.bob]);
    assert.equal(compared.code, 2, 'B has no run of that name');
    const owned = await cli(['memory', 'get', 'notes', 'plan', '--owner', 'jwt:alice']);
    assert.equal(owned.stdout.trim(), '"ski trip"');
    const usage = await cli(['sessions', 'list', '--owner', 'alice']);
    assert.equal(usage.code, 2);
    const both = await cli(['sessions', 'list', '--owner', 'jwt:alice', '--key', key]);
    assert.equal(both.code, 2);
  });
});

describe('what is whose across three yeoul serve instances on one PostgreSQL', () => {
  let model: FakeOpenAiServer;
  let idp: FakeIdentityProvider;
  let database: PostgresServer;
  let databaseUrl: string;
  let instances: ServeProcess[] = [];
  let env: Record<string, string>;
  let token: Awaited<ReturnType<typeof tokens>>;

  before(async () => {
    model = await startFakeOpenAiServer(scripted, {
      delayMs: (request) => (lastUserText(request).startsWith('slow') ? 1500 : 0),
    });
    idp = await startFakeIdentityProvider();
    const jwksFile = join(root, 'jwks-scale.json');
    idp.writeJwksFile(jwksFile);
    database = await startPostgresServer();
    databaseUrl = await database.createDatabase();
    env = { ...identityEnv(jwksFile, model), DATABASE_URL: databaseUrl };
    instances = await Promise.all(
      ['one', 'two', 'three'].map((name) =>
        startServeProcess(join(root, `scale-${name}`), env, ['--no-sample']),
      ),
    );
    token = await tokens(idp);
  });
  after(async () => {
    await Promise.all(instances.map((instance) => instance.kill()));
    await model.close();
    await idp.close();
    await database.stop();
  });

  it('answers B on any instance exactly as on missing ids, and nothing is made, run or sent', async () => {
    const [one, two, three] = instances as [ServeProcess, ServeProcess, ServeProcess];
    const alice = as(one.url, token.alice);
    const things = await makeAliceThings(alice);
    const seen = await aliceView(as(two.url, token.aliceRs), things);
    const pool = new pg.Pool({ connectionString: databaseUrl });
    const count = async () =>
      (
        await pool.query(
          'SELECT (SELECT count(*) FROM server_sessions) AS sessions, (SELECT count(DISTINCT thread_id) FROM graph_segments) AS threads',
        )
      ).rows[0];
    try {
      const before = await count();
      const requests = model.requests.length;
      await probeAsB(as(two.url, token.bob), things, `${two.url}/mcp`, token.bob);
      await probeAsB(as(three.url, token.bobRs), things, `${three.url}/mcp`, token.bobRs);
      assert.equal(model.requests.length, requests, 'nothing was sent to the model');
      assert.deepEqual(await count(), before, 'no session or thread made');
      assert.deepEqual(await aliceView(as(three.url, token.alice), things), seen);
      // A running run on one instance: B can neither rejoin nor cancel it from the others.
      const stream = alice('POST', '/api/agent/stream', {
        message: 'slow two',
        sessionId: 'a-slow',
      });
      await waitUntil(
        async () =>
          (await as(two.url, token.alice)('GET', '/api/sessions/a-slow')).body?.status ===
          'running',
        'A’s run going',
      );
      for (const instance of [two, three]) {
        const b = as(instance.url, token.bob);
        assert.deepEqual(
          [
            (await b('GET', '/api/sessions/a-slow/stream')).code,
            (await b('POST', '/api/sessions/a-slow/cancel')).code,
          ],
          ['not_found', 'not_found'],
        );
      }
      assert.match(String((await stream).body), /"status":"published"/);
      // A's profile, stated through one instance, reaches her new session on another only.
      const question = { message: '내 이름이 뭐라고 했지?' };
      assert.match(
        (await as(three.url, token.alice)('POST', '/api/agent/invoke', question)).body.response,
        /철수/,
      );
      assert.doesNotMatch(
        (await as(two.url, token.bob)('POST', '/api/agent/invoke', question)).body.response,
        /철수/,
      );
      assert.doesNotMatch(
        (await as(three.url, adminKey)('POST', '/api/agent/invoke', question)).body.response,
        /철수/,
      );
      // The command line on the same database, as B: A's session is one that does not exist.
      const shown = await runYeoul(
        ['sessions', 'show', 'a-chat', '--token', token.bob, '--data', join(root, 'scale-cli')],
        { env, timeoutMs: 60_000 },
      );
      assert.equal(shown.code, 1);
      assert.match(shown.stderr, /there is no session "a-chat"/);
      // The admin prunes B's sessions from any instance; A's stay.
      const pruned = await as(two.url, adminKey)('POST', '/api/sessions/prune', {
        olderThan: '0s',
        owner: 'jwt:bob',
      });
      assert.equal(pruned.status, 200);
      assert.deepEqual((await as(three.url, token.bob)('GET', '/api/sessions')).body.sessions, []);
      assert.equal(
        (await as(one.url, token.alice)('GET', '/api/sessions/a-pending')).body.interrupts.length,
        1,
      );
    } finally {
      await pool.end();
    }
  });
});
