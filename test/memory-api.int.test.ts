import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RunningServer } from '../src/server/index.ts';
import { keyedClient, runYeoul } from '../src/testing/internal/index.ts';
import { startTestServer } from '../src/testing/internal/test-server.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-memory-api-'));
after(() => rmSync(root, { recursive: true, force: true }));

const client = (server: RunningServer, key: string) => keyedClient(server.url, key);

describe('/api/memory with two API keys', () => {
  let server: RunningServer;
  before(async () => {
    ({ server } = await startTestServer(mkdtempSync(join(root, 'data-')), {
      YEOUL_API_KEYS: 'key-a,key-b',
      YEOUL_SAMPLE_KNOWLEDGE: 'false',
    }));
  });
  after(() => server.close());

  it('stores, reads, lists, searches and deletes an item of the key’s owner', async () => {
    const a = client(server, 'key-a');
    const put = await a('PUT', '/api/memory/profile/name', { value: { name: '철수' } });
    assert.equal(put.status, 200);
    assert.deepEqual(put.body.value, { name: '철수' });
    assert.equal(put.body.namespace, 'profile');
    const got = await a('GET', '/api/memory/profile/name');
    assert.equal(got.status, 200);
    assert.deepEqual(got.body.value, { name: '철수' });
    await a('PUT', '/api/memory/team/payments/lead', { value: '결제팀 리드는 영희' });
    const listed = await a('GET', '/api/memory?prefix=team');
    assert.deepEqual(
      listed.body.items.map((item: Json) => `${item.namespace}/${item.key}`),
      ['team/payments/lead'],
    );
    const searched = await a('GET', `/api/memory?query=${encodeURIComponent('결제팀')}`);
    assert.equal(searched.body.items[0].key, 'lead');
    assert.equal(typeof searched.body.items[0].score, 'number');
    assert.equal((await a('DELETE', '/api/memory/team/payments/lead')).status, 204);
    assert.equal((await a('DELETE', '/api/memory/team/payments/lead')).status, 404);
    assert.equal((await a('GET', '/api/memory/team/payments/lead')).status, 404);
  });

  it('lets neither key read, list, search, overwrite or delete the other’s items, hostile names included', async () => {
    const a = client(server, 'key-a');
    const b = client(server, 'key-b');
    const names = ['team/a_b/k-1', 'team/x.y:z/k_2', 'shared/secret'];
    for (const path of names) {
      assert.equal(
        (await a('PUT', `/api/memory/${path}`, { value: `A의 비밀 ${path}` })).status,
        200,
      );
    }
    for (const path of names) {
      assert.equal((await b('GET', `/api/memory/${path}`)).status, 404, path);
      assert.equal((await b('DELETE', `/api/memory/${path}`)).status, 404, path);
    }
    for (const query of [
      '',
      '?prefix=team',
      '?prefix=shared',
      '?query=%EB%B9%84%EB%B0%80',
      '?query=secret',
    ]) {
      assert.deepEqual((await b('GET', `/api/memory${query}`)).body.items, [], query);
    }
    // B writes the same names: its own items, and A's stay as they were.
    assert.equal((await b('PUT', '/api/memory/shared/secret', { value: 'B' })).status, 200);
    assert.equal(
      (await a('GET', '/api/memory/shared/secret')).body.value,
      'A의 비밀 shared/secret',
    );
    assert.equal((await b('GET', '/api/memory/shared/secret')).body.value, 'B');
    // Wildcards and prefix tricks reach nothing of A's.
    for (const prefix of ['%25', '*', 'tea', 'team%2F%25', '_']) {
      const listed = await b('GET', `/api/memory?prefix=${prefix}`);
      assert.ok(listed.status === 400 || listed.body.items.length === 0, prefix);
    }
    assert.equal((await a('GET', '/api/memory?prefix=tea')).body.items.length, 0);
    assert.equal((await a('GET', '/api/memory?prefix=team')).body.items.length, 2);
  });

  it('keeps sessions, their history and their profile facts to the key that made them', async () => {
    const a = client(server, 'key-a');
    const b = client(server, 'key-b');
    const id = 'a_b.c:d-e';
    const made = await a('POST', '/api/agent/invoke', {
      message: '우리 팀은 결제팀이야',
      sessionId: id,
    });
    assert.equal(made.status, 200);
    assert.equal((await b('GET', `/api/sessions/${id}`)).status, 404);
    assert.equal((await b('GET', `/api/sessions/${id}/history`)).status, 404);
    assert.equal((await b('DELETE', `/api/sessions/${id}`)).status, 404);
    assert.equal(
      (await b('POST', '/api/agent/invoke', { message: 'hi', sessionId: id })).status,
      404,
    );
    assert.deepEqual((await b('GET', '/api/sessions')).body.sessions, []);
    assert.deepEqual((await b('GET', '/api/memory?prefix=profile')).body.items, []);
    assert.equal((await a('GET', '/api/memory/profile/team')).body.value, '결제팀');
    assert.equal((await a('GET', `/api/sessions/${id}/history`)).status, 200);
  });

  it('keeps forks, graph threads, feedback and evaluation runs to the key that made them', async () => {
    const a = client(server, 'key-a');
    const b = client(server, 'key-b');
    const id = 'team_a.fork:src';
    assert.equal(
      (await a('POST', '/api/agent/invoke', { message: '안녕', sessionId: id })).status,
      200,
    );
    // Fork: another key's session does not exist for b, whatever id b asks for.
    assert.equal((await b('POST', `/api/sessions/${id}/fork`, { atStep: -1 })).status, 404);
    const forked = await a('POST', `/api/sessions/${id}/fork`, {
      atStep: -1,
      sessionId: 'team_a.fork:copy',
    });
    assert.equal(forked.status, 201);
    assert.equal((await b('GET', '/api/sessions/team_a.fork:copy')).status, 404);
    assert.equal(
      (await b('POST', '/api/sessions/team_a.fork:copy/fork', { atStep: -1 })).status,
      404,
    );
    // Feedback on another key's session is a 404 too.
    assert.equal((await b('POST', `/api/sessions/${id}/feedback`, { rating: 1 })).status, 404);
    assert.equal((await a('POST', `/api/sessions/${id}/feedback`, { rating: 1 })).status, 201);
    // Evaluation runs and their sessions belong to the key that started them.
    const started = await a('POST', '/api/evals', {
      items: [{ input: '123 * 456 계산해줘', expected: '56,088' }],
      name: 'a-run',
    });
    assert.equal(started.status, 202);
    let run: Json;
    for (let tries = 0; tries < 100; tries += 1) {
      run = (await a('GET', `/api/evals/${started.body.id}`)).body;
      if (run.status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(run.status, 'done');
    assert.equal((await b('GET', `/api/evals/${started.body.id}`)).status, 404);
    assert.deepEqual((await b('GET', '/api/evals')).body.runs, []);
    const itemSession = run.items[0].sessionId;
    assert.equal((await b('GET', `/api/sessions/${itemSession}`)).status, 404);
    assert.equal((await a('GET', `/api/sessions/${itemSession}`)).status, 200);
  });

  it('answers 400 for names outside the rule and 413 for a value over 65,536 bytes', async () => {
    const a = client(server, 'key-a');
    const bad = [
      '/api/memory/team%25/k',
      '/api/memory/te*m/k',
      '/api/memory/team%5Ca/k',
      '/api/memory/team%20a/k',
      '/api/memory/team//k',
      '/api/memory/a/b/c/d/e/f/g/h/i/k',
      `/api/memory/${'a'.repeat(65)}/k`,
      '/api/memory/team/k%25',
      '/api/memory/k',
    ];
    for (const path of bad) {
      const response = await a('PUT', path, { value: 1 });
      assert.equal(response.status, 400, path);
      assert.equal(response.body.error.code, 'invalid_memory_name', path);
      assert.equal((await a('GET', path)).status, 400, path);
    }
    for (const prefix of ['%25', '*', 'a%20b', '', 'a/', 'a/b/c/d/e/f/g/h/i']) {
      const response = await a('GET', `/api/memory?prefix=${prefix}`);
      assert.equal(response.status, 400, prefix);
    }
    assert.equal((await a('PUT', '/api/memory/a/b/c/d/e/f/g/h/k', { value: 8 })).status, 200);
    const huge = await a('PUT', '/api/memory/big/k', { value: 'x'.repeat(65_535) });
    assert.equal(huge.status, 413);
    assert.match(huge.body.error.message, /65536/);
    assert.equal((await a('PUT', '/api/memory/big/k', { value: 'x'.repeat(65_534) })).status, 200);
    assert.equal((await a('PUT', '/api/memory/big/k', {})).status, 400);
    assert.equal((await a('GET', '/api/memory?limit=abc')).status, 400);
  });

  it('describes the memory routes in /openapi.json', async () => {
    const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as Json;
    assert.ok(openapi.paths['/api/memory'].get);
    const item = openapi.paths['/api/memory/{namespace}/{key}'];
    assert.ok(item.put && item.get && item.delete);
  });
});

describe('yeoul memory beside a running server', () => {
  let server: RunningServer;
  let dataDir: string;
  before(async () => {
    dataDir = mkdtempSync(join(root, 'data-'));
    ({ server } = await startTestServer(dataDir, {
      YEOUL_API_KEYS: 'key-a,key-b',
      YEOUL_SAMPLE_KNOWLEDGE: 'false',
    }));
  });
  after(() => server.close());

  const yeoul = (...args: string[]) =>
    runYeoul(['memory', ...args, '--data', dataDir], {
      env: { YEOUL_SAMPLE_KNOWLEDGE: 'false' },
      timeoutMs: 60_000,
    });

  it('writes as a key’s owner, which the server sees at once, and keeps owners apart', async () => {
    const put = await yeoul('put', 'profile', 'team', '"결제팀"', '--key', 'key-a');
    assert.equal(put.code, 0, put.stderr);
    const a = client(server, 'key-a');
    assert.equal((await a('GET', '/api/memory/profile/team')).body.value, '결제팀');
    assert.equal((await client(server, 'key-b')('GET', '/api/memory/profile/team')).status, 404);
    await a('PUT', '/api/memory/profile/name', { value: '철수' });
    const listed = await yeoul('list', '--prefix', 'profile', '--json', '--key', 'key-a');
    assert.deepEqual(
      JSON.parse(listed.stdout)
        .items.map((item: Json) => item.key)
        .sort(),
      ['name', 'team'],
    );
    const anonymous = await yeoul('get', 'profile', 'team');
    assert.equal(anonymous.code, 1);
    assert.match(anonymous.stderr, /no memory item "team"/);
    const got = await yeoul('get', 'profile', 'name', '--key', 'key-a');
    assert.equal(got.stdout.trim(), '"철수"');
    const bad = await yeoul('put', 'te%m', 'k', '1');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /segment 1/);
    assert.equal((await yeoul('delete', 'profile', 'team', '--key', 'key-a')).code, 0);
    assert.equal((await a('GET', '/api/memory/profile/team')).status, 404);
    assert.equal((await yeoul('delete', 'profile', 'team', '--key', 'key-a')).code, 1);
  });
});
