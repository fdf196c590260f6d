import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { newDelivery, type WebhookOutbox } from '../../webhooks/index.ts';
import type { RunRecord, RunStore } from './run-store.ts';

/** A run store the suite opens, and how to release it. */
export interface OpenedRunStore {
  store: RunStore;
  /** The webhook outbox on the same data (where a run's deliveries are stored with it). */
  outbox: WebhookOutbox;
  /** Another store on the same data, as a second instance (or process) would open it. */
  another(): Promise<RunStore> | RunStore;
  close(): Promise<void> | void;
}

let clock = Date.parse('2026-12-07T00:00:00.000Z');

/** A queued run of `owner` on `sessionId`, created a millisecond after the last one. */
function runOf(runId: string, fields: Partial<RunRecord> = {}): RunRecord {
  clock += 1;
  return {
    runId,
    sessionId: 's1',
    owner: 'alice',
    status: 'queued',
    source: 'api',
    graph: 'chat',
    message: '안녕하세요',
    createdAt: new Date(clock).toISOString(),
    startedAt: null,
    endedAt: null,
    attempts: 1,
    instanceId: 'instance-a',
    ...fields,
  };
}

/** A delivery of `runId`'s end to a webhook. */
function deliveryOf(runId: string) {
  const run = { runId, sessionId: 's1', status: 'done', source: 'api' };
  const times = { createdAt: '', startedAt: null, endedAt: null };
  const body = { run: { ...run, ...times } };
  const target = { url: 'https://example.com/hook', headers: { 'x-tenant': 'acme' } };
  return newDelivery({ runId, event: 'run.done', ...target, body }, clock);
}

/**
 * The behaviour every RunStore backend must have (SQLite, PostgreSQL). `open` gives a fresh,
 * empty store each time.
 */
export function runStoreConformance(
  name: string,
  open: () => Promise<OpenedRunStore> | OpenedRunStore,
): void {
  describe(`${name} run store (conformance)`, () => {
    let opened: OpenedRunStore;
    let store: RunStore;
    beforeEach(async () => {
      opened = await open();
      store = opened.store;
    });
    afterEach(async () => {
      await opened.close();
    });

    it('gives back a run exactly as created, and nothing for an unknown id', async () => {
      const run = runOf('r1', { webhook: { url: 'https://example.com/hook' }, request: { a: 1 } });
      assert.equal(await store.create(run), true);
      assert.deepEqual(await store.get('r1'), run);
      assert.equal(await store.get('never'), undefined);
    });

    it('refuses a second run with the same id or the same schedule slot', async () => {
      assert.equal(await store.create(runOf('r1')), true);
      assert.equal(await store.create(runOf('r1', { message: 'other' })), false);
      const slot = { scheduleId: 'sch1', scheduledFor: '2026-12-07T01:00:00.000Z' };
      assert.equal(await store.create(runOf('r2', slot)), true);
      assert.equal(await store.create(runOf('r3', slot)), false);
      assert.equal(await store.create(runOf('r4', { ...slot, scheduledFor: null })), true);
      assert.equal(await store.create(runOf('r5', { ...slot, scheduledFor: null })), true);
      assert.equal(await store.get('r3'), undefined);
      assert.equal((await store.get('r1'))?.message, '안녕하세요');
    });

    it('changes a run, and only from the statuses named', async () => {
      await store.create(runOf('r1'));
      const startedAt = new Date().toISOString();
      assert.equal(await store.update('r1', { status: 'running', startedAt }), true);
      assert.equal(await store.update('r1', { status: 'cancelled' }, ['queued']), false);
      const result = { response: '답', status: 'published', steps: ['agent'] };
      assert.equal(
        await store.update('r1', { status: 'done', result, endedAt: startedAt }, ['running']),
        true,
      );
      const run = await store.get('r1');
      assert.equal(run?.status, 'done');
      assert.equal(run?.startedAt, startedAt);
      assert.deepEqual(run?.result, result);
      assert.equal(await store.update('never', { status: 'done' }), false);
      await store.update('r1', { result: undefined });
      assert.equal('result' in ((await store.get('r1')) ?? {}), false);
    });

    it('lists one owner’s runs newest first, filtered, without results unless asked', async () => {
      await store.create(runOf('a1'));
      await store.create(runOf('a2', { sessionId: 's2', status: 'running' }));
      await store.create(runOf('a3', { scheduleId: 'sch1', scheduledFor: null }));
      await store.create(runOf('b1', { owner: 'bob' }));
      await store.update('a1', { status: 'done', result: { response: 'x' } });
      const ids = (runs: RunRecord[]) => runs.map((run) => run.runId);
      assert.deepEqual(ids(await store.list({ owner: 'alice' })), ['a3', 'a2', 'a1']);
      assert.deepEqual(ids(await store.list({ owner: 'bob' })), ['b1']);
      assert.deepEqual(ids(await store.list({ owner: 'carol' })), []);
      assert.deepEqual(ids(await store.list({ owner: 'alice', sessionId: 's2' })), ['a2']);
      assert.deepEqual(ids(await store.list({ owner: 'bob', sessionId: 's1' })), ['b1']);
      assert.deepEqual(ids(await store.list({ owner: 'alice', scheduleId: 'sch1' })), ['a3']);
      assert.deepEqual(ids(await store.list({ owner: 'alice', statuses: ['done', 'running'] })), [
        'a2',
        'a1',
      ]);
      assert.deepEqual(ids(await store.list({ owner: 'alice', limit: 2 })), ['a3', 'a2']);
      assert.deepEqual(ids(await store.list({ owner: 'alice', sources: ['invoke'] })), []);
      const [listed] = await store.list({ owner: 'alice', statuses: ['done'] });
      assert.equal(listed?.runId, 'a1');
      assert.equal('result' in (listed ?? {}), false);
      const [whole] = await store.list({ owner: 'alice', statuses: ['done'], withResults: true });
      assert.deepEqual(whole?.result, { response: 'x' });
      const [unended] = await store.list({ owner: 'alice', sessionId: 's2', withResults: true });
      assert.equal('result' in (unended ?? {}), false);
    });

    it('finds runs of any owner by status, oldest first', async () => {
      await store.create(runOf('r1', { status: 'running' }));
      await store.create(runOf('r2', { owner: 'bob' }));
      await store.create(runOf('r3', { status: 'done' }));
      const going = await store.inStatus(['queued', 'running']);
      assert.deepEqual(
        going.map((run) => run.runId),
        ['r1', 'r2'],
      );
    });

    it('forgets only the deleted session’s runs', async () => {
      await store.create(runOf('r1'));
      await store.create(runOf('r2', { sessionId: 's2' }));
      await store.deleteSession('s1');
      assert.equal(await store.get('r1'), undefined);
      assert.equal((await store.get('r2'))?.sessionId, 's2');
      await store.deleteSession('never');
    });

    it('stores a run’s end and its webhook delivery in one write, or neither', async () => {
      const { outbox } = opened;
      const ids = async (runId: string) => (await outbox.ofRun(runId)).map((one) => one.id);
      await store.create(runOf('r1', { status: 'running' }));
      const delivery = deliveryOf('r1');
      const ended = { status: 'done' as const, endedAt: new Date(clock).toISOString() };
      assert.equal(await store.update('r1', ended, ['running'], undefined, delivery), true);
      assert.deepEqual(await ids('r1'), [delivery.id]);
      // A lost compare-and-set stores no delivery.
      const failed = { status: 'failed' as const };
      assert.equal(
        await store.update('r1', failed, ['running'], undefined, deliveryOf('r1')),
        false,
      );
      assert.deepEqual(await ids('r1'), [delivery.id]);
      // A delivery that cannot be stored (its id is taken) keeps the run's change out too.
      await assert.rejects(store.update('r1', failed, undefined, undefined, delivery));
      assert.equal((await store.get('r1'))?.status, 'done');
      const made = deliveryOf('r2');
      assert.equal(await store.create(runOf('r2', { status: 'failed' }), made), true);
      assert.equal(await store.create(runOf('r2'), deliveryOf('r2')), false);
      assert.deepEqual(await ids('r2'), [made.id]);
      await assert.rejects(store.create(runOf('r3'), made));
      assert.equal(await store.get('r3'), undefined);
      const [claimed] = await outbox.claimDue(clock + 1, 10, 'instance-a', 1_000);
      assert.equal(claimed?.body, delivery.body);
      assert.deepEqual(claimed?.headers, { 'x-tenant': 'acme' });
    });

    it('lets two instances take one run: one compare-and-set wins', async () => {
      const other = await opened.another();
      await store.create(runOf('r1', { status: 'running' }));
      const take = (runs: RunStore, instanceId: string) =>
        runs.update('r1', { attempts: 2, instanceId }, ['running'], 'instance-a');
      const outcomes = await Promise.all([take(store, 'instance-b'), take(other, 'instance-c')]);
      assert.deepEqual(
        outcomes.filter((won) => won),
        [true],
      );
      assert.equal((await other.get('r1'))?.status, 'running');
    });
  });
}
