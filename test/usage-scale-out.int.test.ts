import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  echoCompletion,
  type FakeOpenAiServer,
  type PostgresServer,
  runYeoul,
  type ServeProcess,
  startFakeOpenAiServer,
  startPostgresServer,
  startServeProcess,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-usage-scale-out-'));
const limit = 5;
let database: PostgresServer;
let model: FakeOpenAiServer;
let databaseUrl: string;
const running = new Set<ServeProcess>();

const settings = () => ({
  DATABASE_URL: databaseUrl,
  YEOUL_MODEL: 'compat:echo',
  YEOUL_COMPAT_BASE_URL: model.baseUrl,
  YEOUL_REQUESTS_PER_MINUTE: String(limit),
});

async function instance(name: string): Promise<ServeProcess> {
  const server = await startServeProcess(join(root, name), settings(), ['--no-sample']);
  running.add(server);
  void server.exited.then(() => running.delete(server));
  return server;
}

async function post(server: ServeProcess, path: string, body: unknown) {
  const response = await fetch(server.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

async function usageOn(server: ServeProcess): Promise<Json> {
  return (await fetch(`${server.url}/api/usage`)).json();
}

before(async () => {
  database = await startPostgresServer();
  databaseUrl = await database.createDatabase();
  model = await startFakeOpenAiServer(echoCompletion, { delayMs: 20, keepRequests: false });
});

after(async () => {
  await Promise.all([...running].map((server) => server.kill()));
  await model.close();
  await database.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('limits and usage across yeoul serve instances on one PostgreSQL', () => {
  let a: ServeProcess;
  let b: ServeProcess;
  const accepted: Json[] = [];

  before(async () => {
    [a, b] = await Promise.all([instance('a'), instance('b')]);
  });

  it(`accepts exactly ${limit} of 24 requests one owner sends at once through two instances`, async () => {
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, index) =>
        post(index % 2 === 0 ? a : b, '/api/agent/invoke', { message: `hello ${index}` }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    assert.equal(statuses.filter((status) => status === 200).length, limit, statuses.join(' '));
    assert.equal(statuses.filter((status) => status === 429).length, 24 - limit);
    for (const answer of answers) {
      if (answer.status === 200) accepted.push(answer.body);
      else assert.equal(answer.body.error.code, 'rate_limited');
    }
  });

  it('counts the tokens used through either instance on both', async () => {
    const [onA, onB] = await Promise.all([usageOn(a), usageOn(b)]);
    assert.deepEqual(onA, onB);
    const sum = (field: 'llmCalls' | 'inputTokens' | 'outputTokens') =>
      accepted.reduce((total, body) => total + body.usage[field], 0);
    assert.deepEqual(onA.total, {
      requests: limit,
      llmCalls: sum('llmCalls'),
      inputTokens: sum('inputTokens'),
      outputTokens: sum('outputTokens'),
    });
  });

  it('keeps the counts and the window across a restart, and `yeoul usage` reads them beside the servers', async () => {
    const before = await usageOn(b);
    await a.stop();
    a = await instance('a-again');
    assert.deepEqual(await usageOn(a), before);
    const refused = await post(a, '/api/agent/invoke', { message: 'still within the minute' });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'rate_limited');
    const cli = await runYeoul(['usage', '--json', '--data', join(root, 'cli')], {
      env: { DATABASE_URL: databaseUrl },
    });
    assert.equal(cli.code, 0, cli.stderr);
    const every = JSON.parse(cli.stdout) as Json;
    assert.deepEqual(every.owners, [
      { owner: 'anonymous', days: before.days, total: before.total },
    ]);
  });
});
