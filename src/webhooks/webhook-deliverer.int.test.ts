import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, afterEach, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { applyMigrations, createPostgresPool, type PostgresPool } from '../core/index.ts';
import { type PostgresServer, startPostgresServer } from '../testing/internal/index.ts';
import type { HostResolver } from './check-webhook-host.ts';
import { PostgresWebhookOutbox } from './postgres-webhook-outbox.ts';
import { verifyWebhookSignature } from './sign-webhook.ts';
import { SqliteWebhookOutbox } from './sqlite-webhook-outbox.ts';
import {
  type WebhookAttemptReport,
  WebhookDeliverer,
  type WebhookDelivererOptions,
} from './webhook-deliverer.ts';
import { parseHostEntry, type WebhookHostEntry } from './webhook-hosts.ts';
import { webhookMigrations } from './webhook-migrations.ts';
import type { WebhookEnqueueInput, WebhookOutbox } from './webhook-outbox.ts';
import { sampleWebhookInput } from './webhook-outbox-conformance.ts';

const secret = 'test-secret-0123456789';
const root = mkdtempSync(join(tmpdir(), 'yeoul-deliverer-'));
after(() => rmSync(root, { recursive: true, force: true }));

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type Answer = { status: number; headers?: Record<string, string> } | 'hang';

/** A webhook receiver on a loopback port that answers each request as `answer` says. */
async function startReceiver(
  answer: (request: Received, index: number) => Answer,
  host = '127.0.0.1',
) {
  const received: Received[] = [];
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(entry);
      const reply = answer(entry, received.length - 1);
      if (reply === 'hang') hanging.push(response);
      else response.writeHead(reply.status, reply.headers).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const authority = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return {
    port,
    url: `http://${authority}/hook`,
    received,
    hosts: [parseHostEntry(authority) as WebhookHostEntry],
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function openSqlite(path = join(mkdtempSync(join(root, 'data-')), 'threads.sqlite')) {
  const database = new DatabaseSync(path);
  database.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;');
  return { path, database, outbox: new SqliteWebhookOutbox(database) };
}

function input(url: string, runId = 'r1'): WebhookEnqueueInput {
  return sampleWebhookInput(runId, { url });
}

/** Waits (briefly polling) until `done` holds; the test's own time-out bounds it. */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await done())) await delay(5);
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A started deliverer whose attempts are collected in `reports`. */
function deliverer(options: Partial<WebhookDelivererOptions> & { outbox: WebhookOutbox }) {
  const reports: WebhookAttemptReport[] = [];
  const errors: unknown[] = [];
  const started = new WebhookDeliverer({
    secret,
    instanceId: 'i1',
    retryWaitsMs: [0, 0, 0, 0, 0, 0, 0],
    random: () => 0.5,
    pollMs: 20,
    ...options,
    onAttempt: (report) => reports.push(report),
    onError: (error) => errors.push(error),
  });
  started.start();
  cleanups.push(() => started.close());
  return { deliverer: started, reports, errors };
}

describe('WebhookDeliverer', () => {
  it('delivers once per enqueue, signed so the receiver can verify it', async () => {
    const receiver = await startReceiver(() => ({ status: 204 }));
    cleanups.push(receiver.close);
    const { outbox, database } = openSqlite();
    cleanups.push(() => database.close());
    const { deliverer: started, reports } = deliverer({ outbox, hosts: receiver.hosts });
    const delivery = await started.enqueue(input(receiver.url));
    await until(() => reports.length === 1);
    assert.equal(reports[0]?.outcome, 'delivered');
    assert.equal(receiver.received.length, 1);
    const [request] = receiver.received as [Received];
    assert.equal(request.body, delivery.body);
    assert.equal(JSON.parse(request.body).id, delivery.id);
    assert.equal(request.headers['x-yeoul-delivery'], delivery.id);
    assert.equal(request.headers['x-yeoul-event'], 'run.done');
    assert.equal(request.headers['x-yeoul-attempt'], '1');
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers.authorization, 'Bearer secret-token');
    assert.match(String(request.headers['user-agent']), /^yeoul\/\d/);
    assert.equal(
      verifyWebhookSignature(
        secret,
        request.headers['x-yeoul-timestamp'] as string,
        request.body,
        request.headers['x-yeoul-signature'] as string,
      ),
      true,
    );
    const [info] = await outbox.ofRun('r1');
    assert.equal(info?.state, 'delivered');
    assert.equal(info?.attempts, 1);
    assert.equal(info?.lastStatus, 204);
    assert.deepEqual(await outbox.claimDue(Date.now() + 1e9, 10, 'other', 1000), []);
  });

  it('makes three attempts after two 500s, each with the same bytes and id', async () => {
    const receiver = await startReceiver((_, index) => ({ status: index < 2 ? 500 : 200 }));
    cleanups.push(receiver.close);
    const { outbox, database } = openSqlite();
    cleanups.push(() => database.close());
    const { deliverer: started, reports } = deliverer({ outbox, hosts: receiver.hosts });
    await started.enqueue(input(receiver.url));
    await until(() => reports.length === 3);
    assert.deepEqual(
      reports.map((report) => report.outcome),
      ['retry', 'retry', 'delivered'],
    );
    assert.deepEqual(
      receiver.received.map((request) => request.headers['x-yeoul-attempt']),
      ['1', '2', '3'],
    );
    assert.equal(new Set(receiver.received.map((request) => request.body)).size, 1);
    assert.equal(
      new Set(receiver.received.map((request) => request.headers['x-yeoul-delivery'])).size,
      1,
    );
    const [info] = await outbox.ofRun('r1');
    assert.deepEqual([info?.state, info?.attempts, info?.lastStatus], ['delivered', 3, 200]);
  });

  it('makes one attempt after a 410, and never follows a 302', async () => {
    const receiver = await startReceiver((request) =>
      request.path === '/gone'
        ? { status: 410 }
        : request.path === '/moved'
          ? { status: 302, headers: { location: `/elsewhere` } }
          : { status: 200 },
    );
    cleanups.push(receiver.close);
    const { outbox, database } = openSqlite();
    cleanups.push(() => database.close());
    const { deliverer: started, reports } = deliverer({ outbox, hosts: receiver.hosts });
    await started.enqueue(input(`http://127.0.0.1:${receiver.port}/gone`, 'gone'));
    await started.enqueue(input(`http://127.0.0.1:${receiver.port}/moved`, 'moved'));
    await until(() => reports.length === 2);
    assert.deepEqual(
      reports.map((report) => report.outcome),
      ['failed', 'failed'],
    );
    assert.deepEqual(receiver.received.map((request) => request.path).sort(), ['/gone', '/moved']);
    const [gone] = await outbox.ofRun('gone');
    const [moved] = await outbox.ofRun('moved');
    assert.deepEqual(
      [gone?.state, gone?.attempts, gone?.lastStatus, gone?.lastError],
      ['failed', 1, 410, 'HTTP 410'],
    );
    assert.deepEqual([moved?.state, moved?.attempts, moved?.lastStatus], ['failed', 1, 302]);
  });

  it('waits as a longer Retry-After on a 503 asks, and goes on when that time comes', async () => {
    const receiver = await startReceiver((_, index) =>
      index === 0 ? { status: 503, headers: { 'retry-after': '120' } } : { status: 200 },
    );
    cleanups.push(receiver.close);
    const { outbox, database } = openSqlite();
    cleanups.push(() => database.close());
    let clock = Date.UTC(2026, 11, 7, 12);
    const { deliverer: started, reports } = deliverer({
      outbox,
      hosts: receiver.hosts,
      now: () => clock,
      retryWaitsMs: [1000, 5000],
    });
    await started.enqueue(input(receiver.url));
    await until(() => reports.length === 1);
    assert.equal(reports[0]?.outcome, 'retry');
    assert.equal(reports[0]?.nextAttemptAt, clock + 120_000);
    assert.equal((await outbox.ofRun('r1'))[0]?.nextAttemptAt, clock + 120_000);
    clock += 119_000;
    started.wake();
    await delay(50);
    assert.equal(receiver.received.length, 1);
    clock += 1_000;
    started.wake();
    await until(() => reports.length === 2);
    assert.equal(reports[1]?.outcome, 'delivered');
    assert.equal(receiver.received[1]?.headers['x-yeoul-attempt'], '2');
  });

  it('gives up as failed after the eighth attempt', async () => {
    const receiver = await startReceiver(() => ({ status: 502 }));
    cleanups.push(receiver.close);
    const { outbox, database } = openSqlite();
    cleanups.push(() => database.close());
    const { deliverer: started, reports } = deliverer({ outbox, hosts: receiver.hosts });
    await started.enqueue(input(receiver.url));
    await until(() => reports.length === 8);
    assert.deepEqual(
      reports.map((report) => report.outcome),
      [...Array(7).fill('retry'), 'failed'],
    );
    const [info] = await outbox.ofRun('r1');
    assert.deepEqual([info?.state, info?.attempts, info?.lastStatus], ['failed', 8, 502]);
  });

  it('makes a pending delivery after a restart on the same SQLite file, its attempts counted', async () => {
    let up = false;
    const receiver = await startReceiver(() => ({ status: up ? 200 : 500 }));
    cleanups.push(receiver.close);
    const first = openSqlite();
    let clock = Date.UTC(2026, 11, 7, 12);
    const before = new WebhookDeliverer({
      outbox: first.outbox,
      secret,
      instanceId: 'before',
      hosts: receiver.hosts,
      now: () => clock,
      random: () => 0.5,
      onAttempt: () => undefined,
    });
    before.start();
    await before.enqueue(input(receiver.url));
    await until(async () => (await first.outbox.ofRun('r1'))[0]?.attempts === 1);
    await before.close();
    // Stored but never attempted: what a crash right after the run's end leaves.
    await first.outbox.enqueue(input(receiver.url, 'r2'), clock);
    first.database.close();
    up = true;
    clock += 1_000;
    const second = openSqlite(first.path);
    cleanups.push(() => second.database.close());
    deliverer({
      outbox: second.outbox,
      hosts: receiver.hosts,
      now: () => clock,
      instanceId: 'after',
    });
    await until(async () => {
      const states = [...(await second.outbox.ofRun('r1')), ...(await second.outbox.ofRun('r2'))];
      return states.every((state) => state.state === 'delivered');
    });
    const attempts = receiver.received.map((request) => [
      JSON.parse(request.body).run.runId,
      request.headers['x-yeoul-attempt'],
    ]);
    assert.deepEqual(attempts.sort(), [
      ['r1', '1'],
      ['r1', '2'],
      ['r2', '1'],
    ]);
    assert.equal((await second.outbox.ofRun('r1'))[0]?.attempts, 2);
  });

  it('refuses at attempt time a host the rule does not allow, sending nothing', async () => {
    const receiver = await startReceiver(() => ({ status: 200 }));
    cleanups.push(receiver.close);
    const { outbox, database } = openSqlite();
    cleanups.push(() => database.close());
    const resolve: HostResolver = async () => ['127.0.0.1'];
    const { deliverer: started, reports } = deliverer({ outbox, resolve });
    await started.enqueue(input(receiver.url, 'loopback'));
    await started.enqueue(input(`http://inside.example.com:${receiver.port}/hook`, 'named'));
    await started.enqueue(input(`http://0x7f.1:${receiver.port}/hook`, 'odd'));
    await until(() => reports.length === 3);
    assert.deepEqual(
      reports.map((report) => report.outcome),
      ['failed', 'failed', 'failed'],
    );
    assert.equal(receiver.received.length, 0);
    const [named] = await outbox.ofRun('named');
    assert.match(named?.lastError ?? '', /inside\.example\.com.*not allowed.*127\.0\.0\.1/);
    assert.equal(named?.lastStatus, null);
  });

  it('connects a listed name to the address it resolved to, with the name as Host', async () => {
    const receiver = await startReceiver(() => ({ status: 200 }));
    cleanups.push(receiver.close);
    const { outbox, database } = openSqlite();
    cleanups.push(() => database.close());
    const { deliverer: started, reports } = deliverer({
      outbox,
      hosts: [parseHostEntry(`hooks.yeoul.test:${receiver.port}`) as WebhookHostEntry],
      resolve: async (name) => (name === 'hooks.yeoul.test' ? ['127.0.0.1'] : []),
    });
    await started.enqueue(input(`http://hooks.yeoul.test:${receiver.port}/hook`));
    await until(() => reports.length === 1);
    assert.equal(reports[0]?.outcome, 'delivered');
    assert.equal(receiver.received[0]?.headers.host, `hooks.yeoul.test:${receiver.port}`);
  });

  it('delivers to an IPv6 address listed in brackets', async () => {
    const receiver = await startReceiver(() => ({ status: 200 }), '::1');
    cleanups.push(receiver.close);
    const { outbox, database } = openSqlite();
    cleanups.push(() => database.close());
    const { deliverer: started, reports } = deliverer({ outbox, hosts: receiver.hosts });
    await started.enqueue(input(receiver.url));
    await until(() => reports.length === 1);
    assert.equal(reports[0]?.outcome, 'delivered');
    assert.equal(receiver.received.length, 1);
  });

  it('bounds an attempt whose name never resolves by the time-out, and retries it', async () => {
    const { outbox, database } = openSqlite();
    cleanups.push(() => database.close());
    const { deliverer: started, reports } = deliverer({
      outbox,
      resolve: () => new Promise<string[]>(() => undefined),
      timeoutMs: 50,
      retryWaitsMs: [3_600_000],
    });
    await started.enqueue(input('https://slow-dns.example.com/hook'));
    await until(() => reports.length === 1);
    assert.equal(reports[0]?.outcome, 'retry');
    assert.equal(reports[0]?.error, 'no answer within 50 ms');
  });

  it('goes on delivering while a receiver hangs, and retries an attempt cut by close', async () => {
    const receiver = await startReceiver((request) =>
      request.path === '/hang' ? 'hang' : { status: 200 },
    );
    cleanups.push(receiver.close);
    const { outbox, database } = openSqlite();
    cleanups.push(() => database.close());
    const { deliverer: started, reports } = deliverer({
      outbox,
      hosts: receiver.hosts,
      timeoutMs: 60_000,
    });
    await started.enqueue(input(`http://127.0.0.1:${receiver.port}/hang`, 'hang'));
    await until(() => receiver.received.length === 1);
    for (let index = 0; index < 5; index += 1)
      await started.enqueue(input(receiver.url, `fine-${index}`));
    await until(() => reports.length === 5);
    assert.ok(reports.every((report) => report.outcome === 'delivered'));
    await started.close();
    const [hang] = await outbox.ofRun('hang');
    assert.deepEqual([hang?.state, hang?.attempts, hang?.lastStatus], ['pending', 1, null]);
  });
});

describe('two deliverers on one PostgreSQL', () => {
  let server: PostgresServer;
  before(async () => {
    server = await startPostgresServer();
  });
  after(() => server.stop());

  it('make each attempt exactly once', async () => {
    const seen = new Set<string>();
    const receiver = await startReceiver((request) => {
      const id = request.headers['x-yeoul-delivery'] as string;
      const first = !seen.has(id);
      seen.add(id);
      return { status: first ? 500 : 200 };
    });
    cleanups.push(receiver.close);
    const url = await server.createDatabase();
    const pools: PostgresPool[] = [
      await createPostgresPool({ url }),
      await createPostgresPool({ url }),
    ];
    cleanups.push(async () => {
      for (const pool of pools) await pool.end();
    });
    await applyMigrations(pools[0] as PostgresPool, webhookMigrations);
    const outboxes = pools.map((pool) => new PostgresWebhookOutbox(pool));
    const a = deliverer({
      outbox: outboxes[0] as WebhookOutbox,
      hosts: receiver.hosts,
      instanceId: 'a',
      concurrency: 4,
    });
    const b = deliverer({
      outbox: outboxes[1] as WebhookOutbox,
      hosts: receiver.hosts,
      instanceId: 'b',
      concurrency: 4,
    });
    for (let index = 0; index < 20; index += 1) {
      await (index % 2 === 0 ? a : b).deliverer.enqueue(input(receiver.url, `r${index}`));
    }
    await until(() => a.reports.length + b.reports.length === 40);
    const attempts = receiver.received.map(
      (request) => `${request.headers['x-yeoul-delivery']}#${request.headers['x-yeoul-attempt']}`,
    );
    assert.equal(attempts.length, 40);
    assert.equal(new Set(attempts).size, 40);
    assert.equal(seen.size, 20);
    await delay(50);
    assert.equal(receiver.received.length, 40);
  });
});
