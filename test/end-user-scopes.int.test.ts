import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ownerOfKey } from '../src/identity/index.ts';
import type { RunningServer } from '../src/server/index.ts';
import { hs256Token } from '../src/testing/internal/index.ts';
import { startTestServer } from '../src/testing/internal/test-server.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON results
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-end-user-scopes-'));
after(() => rmSync(root, { recursive: true, force: true }));

const secret = 'scopes-secret-of-more-than-32-bytes!!!!';
const key = 'team-key-92c1';

/** A caller: its headers on every request. */
function as(server: RunningServer, headers: Record<string, string>) {
  return async (
    method: string,
    path: string,
    body?: unknown,
    extra: Record<string, string> = {},
  ) => {
    const response = await fetch(server.url + path, {
      method,
      headers: {
        ...headers,
        ...extra,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      challenge: response.headers.get('www-authenticate'),
      body: (text.startsWith('{') ? JSON.parse(text) : text) as Json,
    };
  };
}

const token = (claims: Record<string, unknown>) => hs256Token(secret, claims);

async function mcpClient(server: RunningServer, headers: Record<string, string>) {
  const client = new Client({ name: 'yeoul-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }),
  );
  return client;
}

describe('end users behind one backend: scopes, owners and the config’s hook', () => {
  let server: RunningServer;
  const logLines: string[] = [];
  let reader: ReturnType<typeof as>;
  let alice: ReturnType<typeof as>;
  let bob: ReturnType<typeof as>;
  let scopeless: ReturnType<typeof as>;
  let keyed: ReturnType<typeof as>;
  before(async () => {
    ({ server } = await startTestServer(
      mkdtempSync(join(root, 'data-')),
      { YEOUL_SAMPLE_KNOWLEDGE: 'false', YEOUL_API_KEYS: key, YEOUL_JWT_SECRET: secret },
      {
        logLines,
        config: {
          auth: {
            async authenticate(request) {
              const user = request.headers['x-user'];
              if (user === undefined || user === 'nobody') return null;
              if (user === 'boom') throw new Error('the session service is down');
              const scopes = request.headers['x-scopes']?.split(' ');
              return scopes ? { owner: user, scopes } : { owner: user };
            },
          },
        },
      },
    ));
    reader = as(server, {
      authorization: `Bearer ${await token({ sub: 'rita', scope: 'openid yeoul:read' })}`,
    });
    alice = as(server, { authorization: `Bearer ${await token({ sub: 'alice' })}` });
    bob = as(server, { 'x-api-key': await token({ sub: 'bob', scope: ['yeoul:write'] }) });
    scopeless = as(server, {
      authorization: `Bearer ${await token({ sub: 'sam', scope: 'openid profile' })}`,
    });
    keyed = as(server, { authorization: `Bearer ${key}` });
  });
  after(() => server.close());

  it('lets a read-only token list and read, and refuses what writes with 403 naming the scope', async () => {
    assert.deepEqual((await reader('GET', '/api/me')).body.scopes, ['yeoul:read']);
    for (const [method, path, body] of [
      ['GET', '/api/sessions'],
      ['GET', '/api/agent/status'],
      ['GET', '/api/documents'],
      ['POST', '/api/search', { query: 'policy' }],
      ['GET', '/api/memory'],
      ['GET', '/api/graphs'],
      ['GET', '/api/evals'],
      ['GET', '/v1/models'],
    ] as Array<[string, string, unknown?]>) {
      assert.equal((await reader(method, path, body)).status, 200, `${method} ${path}`);
    }
    for (const [method, path, body, needed] of [
      ['POST', '/api/agent/invoke', { message: '안녕' }, 'yeoul:write'],
      ['POST', '/api/agent/stream', { message: '안녕' }, 'yeoul:write'],
      ['PUT', '/api/memory/profile/name', { value: 'Rita' }, 'yeoul:write'],
      ['DELETE', '/api/sessions/whatever', undefined, 'yeoul:write'],
      ['POST', '/api/evals', { items: [] }, 'yeoul:write'],
      ['POST', '/api/documents', { documents: [{ text: 'x' }] }, 'yeoul:documents'],
    ] as Array<[string, string, unknown, string]>) {
      const answer = await reader(method, path, body);
      assert.equal(answer.status, 403, `${method} ${path}`);
      assert.equal(answer.body.error.code, 'insufficient_scope');
      assert.match(answer.body.error.message, new RegExp(`needs ${needed}`));
      assert.equal(answer.challenge, `Bearer error="insufficient_scope", scope="${needed}"`);
    }
    assert.deepEqual((await reader('GET', '/api/sessions')).body.sessions, [], 'nothing was made');
  });

  it('gives a token without a scopes claim read and write, a key the documents, a scope-less token only /api/me', async () => {
    const me = (await alice('GET', '/api/me')).body;
    assert.deepEqual(me.scopes, ['yeoul:read', 'yeoul:write']);
    const documents = { documents: [{ id: 'policy', text: 'Vacation is 15 days.' }] };
    assert.equal((await alice('POST', '/api/documents', documents)).status, 403);
    assert.equal((await keyed('POST', '/api/documents', documents)).status, 201);
    assert.deepEqual((await scopeless('GET', '/api/me')).body.scopes, []);
    const refused = await scopeless('GET', '/api/sessions');
    assert.equal(refused.status, 403);
    assert.match(
      refused.body.error.message,
      /needs yeoul:read; these credentials hold no Yeoul scope/,
    );
  });

  it('keeps two end users apart: another’s session answers 404 exactly as a missing one, everywhere', async () => {
    const started = await alice('POST', '/api/agent/invoke', {
      message: '안녕, 내 이름은 앨리스야',
      sessionId: 'alice-1',
    });
    assert.equal(started.status, 200);
    assert.equal((await alice('PUT', '/api/memory/notes/plan', { value: 'ski trip' })).status, 200);
    const stepsBefore = (await alice('GET', '/api/sessions/alice-1/history')).body.steps.length;
    const probes: Array<[string, string, unknown?]> = [
      ['GET', '/api/sessions/{id}'],
      ['GET', '/api/sessions/{id}/history'],
      ['GET', '/api/sessions/{id}/stream'],
      ['POST', '/api/sessions/{id}/cancel'],
      ['POST', '/api/sessions/{id}/fork', { atStep: -1 }],
      ['POST', '/api/sessions/{id}/feedback', { rating: 1 }],
      ['DELETE', '/api/sessions/{id}/interrupts'],
      ['DELETE', '/api/sessions/{id}'],
    ];
    for (const [method, path, body] of probes) {
      const other = await bob(method, path.replace('{id}', 'alice-1'), body);
      const none = await bob(method, path.replace('{id}', 'never-was'), body);
      assert.equal(other.status, 404, `${method} ${path}`);
      assert.deepEqual(
        [other.status, other.body.error?.code],
        [none.status, none.body.error?.code],
        `${method} ${path}`,
      );
    }
    // Naming it as the session to run in: 404, and nothing runs or is stored.
    const invoked = await bob('POST', '/api/agent/invoke', {
      message: 'what did she say?',
      sessionId: 'alice-1',
    });
    assert.deepEqual([invoked.status, invoked.body.error.code], [404, 'not_found']);
    const completed = await bob(
      'POST',
      '/v1/chat/completions',
      { model: 'yeoul-chat', messages: [{ role: 'user', content: 'hi' }] },
      { 'x-session-id': 'alice-1' },
    );
    assert.deepEqual([completed.status, completed.body.error.code], [404, 'not_found']);
    assert.deepEqual((await bob('GET', '/api/sessions')).body.sessions, []);
    assert.equal((await bob('GET', '/api/memory/notes/plan')).status, 404);
    assert.deepEqual((await bob('GET', '/api/memory')).body.items, []);
    const mcp = await mcpClient(server, { authorization: `Bearer ${await token({ sub: 'bob' })}` });
    const asked = (await mcp.callTool({
      name: 'ask',
      arguments: { message: 'hi', sessionId: 'alice-1' },
    })) as Json;
    assert.equal(asked.isError, true);
    await mcp.close();
    // Alice still has her session, untouched, and her memory.
    const history = await alice('GET', '/api/sessions/alice-1/history');
    assert.equal(history.body.steps.length, stepsBefore);
    assert.equal((await alice('GET', '/api/sessions')).body.sessions.length, 1);
    assert.equal((await alice('GET', '/api/memory/notes/plan')).body.value, 'ski trip');
  });

  it('never lets a token whose sub is a key’s tag act as that key', async () => {
    assert.equal(
      (await keyed('POST', '/api/agent/invoke', { message: '안녕', sessionId: 'team-1' })).status,
      200,
    );
    const lookalike = as(server, {
      authorization: `Bearer ${await token({ sub: ownerOfKey(key) })}`,
    });
    assert.equal((await lookalike('GET', '/api/me')).body.owner, `jwt:${ownerOfKey(key)}`);
    assert.equal((await lookalike('GET', '/api/sessions/team-1')).status, 404);
  });

  it('answers /v1 in OpenAI’s shape: 401 invalid_api_key, 403 permission_error', async () => {
    const refused = await as(server, { authorization: 'Bearer eyJ.bad.token' })(
      'GET',
      '/v1/models',
    );
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.code, 'invalid_api_key');
    assert.equal(refused.body.error.type, 'authentication_error');
    assert.equal(refused.challenge, 'Bearer error="invalid_token"');
    const forbidden = await reader('POST', '/v1/chat/completions', {
      model: 'chat',
      messages: [{ role: 'user', content: 'hi' }],
    });
    assert.equal(forbidden.status, 403);
    assert.deepEqual(
      { type: forbidden.body.error.type, code: forbidden.body.error.code },
      { type: 'permission_error', code: 'insufficient_scope' },
    );
    assert.match(forbidden.body.error.message, /needs yeoul:write/);
  });

  it('serves /mcp to accepted credentials only; ask needs yeoul:write', async () => {
    await assert.rejects(mcpClient(server, {}), /401|unauthori[sz]ed/i);
    const readOnly = await mcpClient(server, {
      authorization: `Bearer ${await token({ sub: 'rita', scope: 'yeoul:read' })}`,
    });
    const { tools } = await readOnly.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ['ask', 'search_knowledge']);
    const found = (await readOnly.callTool({
      name: 'search_knowledge',
      arguments: { query: 'vacation' },
    })) as Json;
    assert.notEqual(found.isError, true);
    const denied = (await readOnly.callTool({
      name: 'ask',
      arguments: { message: '안녕' },
    })) as Json;
    assert.equal(denied.isError, true);
    assert.match(denied.content[0].text, /insufficient_scope/);
    await readOnly.close();
    await assert.rejects(
      mcpClient(server, { authorization: `Bearer ${await token({ sub: 'sam', scope: '' })}` }),
      /403|insufficient/i,
    );
    const writer = await mcpClient(server, {
      authorization: `Bearer ${await token({ sub: 'walt' })}`,
    });
    const answered = (await writer.callTool({
      name: 'ask',
      arguments: { message: '2 + 2 계산해줘' },
    })) as Json;
    assert.notEqual(answered.isError, true);
    await writer.close();
  });

  it('asks the config’s hook: its owner and scopes, null for a token to decide, a throw a 401 logged at error', async () => {
    const hooked = as(server, { 'x-user': 'dana', 'x-scopes': 'yeoul:read openid' });
    assert.deepEqual((await hooked('GET', '/api/me')).body, {
      owner: 'hook:dana',
      via: 'hook',
      scopes: ['yeoul:read'],
      admin: false,
      expiresAt: null,
    });
    assert.equal((await hooked('POST', '/api/agent/invoke', { message: 'x' })).status, 403);
    assert.deepEqual((await as(server, { 'x-user': 'erin' })('GET', '/api/me')).body.scopes, [
      'yeoul:read',
      'yeoul:write',
    ]);
    const deferred = as(server, {
      'x-user': 'nobody',
      authorization: `Bearer ${await token({ sub: 'fay' })}`,
    });
    assert.equal((await deferred('GET', '/api/me')).body.owner, 'jwt:fay');
    assert.equal((await as(server, { 'x-user': 'nobody' })('GET', '/api/me')).status, 401);
    const before = logLines.length;
    const broken = await as(server, {
      'x-user': 'boom',
      authorization: `Bearer ${await token({ sub: 'fay' })}`,
    })('GET', '/api/me');
    assert.equal(broken.status, 401);
    assert.equal(broken.body.error.code, 'unauthorized');
    assert.equal(broken.challenge, 'Bearer');
    const logged = logLines.slice(before).map((line) => JSON.parse(line));
    const failure = logged.find((line) => /auth\.authenticate failed/.test(line.msg));
    assert.equal(failure?.level, 50, 'logged at error');
    assert.match(failure?.problem ?? '', /the session service is down/);
    // The key still wins over the hook, which is never asked for it.
    assert.equal(
      (await as(server, { 'x-user': 'boom', 'x-api-key': key })('GET', '/api/me')).status,
      200,
    );
  });
});
