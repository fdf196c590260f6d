import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { applyMigrations, createPostgresPool, type PostgresPool } from '../../core/index.ts';
import {
  type PostgresServer,
  startPostgresServer,
  waitUntil,
} from '../../testing/internal/index.ts';
import type { FollowableStream, StreamEvent } from '../runs/run-streams.ts';
import { PostgresNotifications } from './postgres-notifications.ts';
import { RelayedRunStreams } from './relayed-run-streams.ts';
import { serverMigrations } from './server-migrations.ts';

let server: PostgresServer;
let pool: PostgresPool;
const alive = new Set(['here', 'there']);
const closers: Array<() => Promise<void>> = [];

before(async () => {
  server = await startPostgresServer();
  pool = await createPostgresPool({ url: server.url });
  await applyMigrations(pool, serverMigrations);
});
after(async () => {
  for (const close of closers.reverse()) await close();
  await pool.end();
  await server.stop();
});

async function hub(instanceId: string): Promise<RelayedRunStreams> {
  const notifications = new PostgresNotifications(pool);
  await notifications.start();
  const streams = new RelayedRunStreams(
    { pool, notifications, isAlive: async (id) => alive.has(id), pollMs: 5000 },
    instanceId,
  );
  closers.push(
    () => streams.close(),
    () => notifications.close(),
  );
  return streams;
}

/** Follows until the end; resolves with every event handed over. */
function collect(stream: FollowableStream, lastEventId?: string): Promise<StreamEvent[]> {
  return new Promise((resolve) => {
    const events: StreamEvent[] = [];
    stream.follow(
      lastEventId,
      (event) => events.push(event),
      () => resolve(events),
    );
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the run has a stored row (of `event`, when given). */
async function stored(runKey: string, event?: string): Promise<void> {
  await waitUntil(async () => {
    const { rows } = await pool.query(
      'SELECT 1 FROM server_run_events WHERE run_key = $1 AND ($2::text IS NULL OR event = $2)',
      [runKey, event ?? null],
    );
    return rows.length > 0;
  }, `a stored row of ${runKey}`);
}

describe('RelayedRunStreams', () => {
  it('hands a run going in one instance to a joiner in another, with the same ids and answer ids, tokens in few rows', async () => {
    const [here, there] = [await hub('here'), await hub('there')];
    const stream = here.open('session-1', 'run-1');
    stream.push('step', { node: 'agent', phase: 'start' });
    await stored('run-1');
    const joined = await there.joinable('session-1', undefined);
    assert.ok(joined, 'the running run is joinable elsewhere');
    const received = collect(joined);
    // Tokens name their answer: two answers, each one's tokens in rows of their own.
    for (let index = 0; index < 100; index += 1) {
      stream.push('token', { text: `t${index} ` }, index < 50 ? 'answer-1' : 'answer-2');
    }
    await sleep(40);
    stream.push('done', { response: 'finished' });
    here.finish(stream);
    const events = await received;
    assert.deepEqual(
      events.map((event) => event.id),
      stream.events.map((event) => event.id),
    );
    assert.deepEqual(events, stream.events);
    const { rows } = await pool.query(
      "SELECT count(*)::int AS n FROM server_run_events WHERE run_key = 'run-1'",
    );
    assert.ok((rows[0]?.n as number) <= 7, `${rows[0]?.n} rows for 102 events`);
  });

  it('replays the rest of a finished run to a joiner that names it, and nothing to one that does not', async () => {
    const [here, there] = [await hub('here'), await hub('there')];
    const stream = here.open('session-2', 'run-2');
    for (let index = 0; index < 5; index += 1) stream.push('token', { text: String(index) });
    stream.push('done', { response: 'ok' });
    here.finish(stream);
    await stored('run-2', '#end');
    assert.equal(await there.joinable('session-2', undefined), undefined);
    const rejoined = await there.joinable('session-2', 'run-2:3');
    assert.ok(rejoined);
    const events = await collect(rejoined, 'run-2:3');
    assert.deepEqual(
      events.map((event) => event.id),
      ['run-2:4', 'run-2:5', 'run-2:6'],
    );
  });

  it('offers no run that a dead instance left unfinished', async () => {
    const gone = await hub('gone');
    const there = await hub('there');
    alive.add('gone');
    const stream = gone.open('session-3', 'run-3');
    stream.push('step', { node: 'agent', phase: 'start' });
    await stored('run-3');
    assert.ok(await there.joinable('session-3', undefined));
    alive.delete('gone');
    assert.equal(await there.joinable('session-3', undefined), undefined);
  });
});
