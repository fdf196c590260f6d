import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { NewSchedule, ScheduleStore } from './schedule-store.ts';

/** A schedule store the suite opens, and how to release it. */
export interface OpenedScheduleStore {
  store: ScheduleStore;
  /** Another store on the same data, as a second instance (or process) would open it. */
  another(): Promise<ScheduleStore> | ScheduleStore;
  close(): Promise<void> | void;
}

const slot = Date.parse('2026-12-07T09:00:00Z');

/** A new schedule of `owner`, with any field changed. */
function definition(owner: string, fields: Partial<NewSchedule> = {}): NewSchedule {
  return {
    owner,
    name: null,
    cron: '0 9 * * *',
    timezone: 'Europe/Berlin',
    message: 'the nightly report',
    graph: 'react',
    sessionId: null,
    options: { temperature: 0.2 },
    onBusy: 'enqueue',
    webhook: null,
    enabled: true,
    metadata: {},
    nextRunAt: slot,
    ...fields,
  };
}

/**
 * The behaviour every ScheduleStore backend must have (SQLite, PostgreSQL). `open` gives a
 * fresh, empty store each time.
 */
export function scheduleStoreConformance(
  name: string,
  open: () => Promise<OpenedScheduleStore> | OpenedScheduleStore,
): void {
  describe(`${name} schedule store (conformance)`, () => {
    let opened: OpenedScheduleStore;
    let store: ScheduleStore;
    beforeEach(async () => {
      opened = await open();
      store = opened.store;
    });
    afterEach(async () => {
      await opened.close();
    });

    it('stores a schedule with every field and gives it back', async () => {
      const webhook = { url: 'https://hooks.example.com/a', headers: { 'x-token': 't' } };
      const metadata = { team: 'payments', tier: 2 };
      const made = await store.create(
        definition('alice', {
          name: '밤 보고서',
          sessionId: 's1',
          webhook,
          onBusy: 'rollback',
          metadata,
        }),
      );
      assert.match(made.id, /^[A-Za-z0-9_.:-]{1,128}$/);
      assert.deepEqual(made, {
        ...definition('alice', {
          name: '밤 보고서',
          sessionId: 's1',
          webhook,
          onBusy: 'rollback',
          metadata,
        }),
        id: made.id,
        createdAt: made.createdAt,
        updatedAt: made.createdAt,
        lastRunAt: null,
        lastRunId: null,
      });
      assert.deepEqual(await store.get(made.id, 'alice'), made);
    });

    it('lists an owner’s schedules newest first, and no one else’s', async () => {
      const first = await store.create(definition('alice'));
      const second = await store.create(definition('alice', { message: 'second' }));
      await store.create(definition('bob'));
      const listed = await store.list('alice');
      assert.deepEqual(
        listed.map((schedule) => schedule.id),
        [second.id, first.id],
      );
      assert.deepEqual(await store.list('carol'), []);
    });

    it('answers another owner’s schedule as not found, and changes nothing of it', async () => {
      const made = await store.create(definition('alice'));
      assert.equal(await store.get(made.id, 'bob'), undefined);
      assert.equal(await store.update(made.id, 'bob', { message: 'mine now' }), undefined);
      assert.equal(await store.delete(made.id, 'bob'), false);
      assert.equal((await store.get(made.id, 'alice'))?.message, 'the nightly report');
      assert.equal(await store.get('unknown', 'alice'), undefined);
    });

    it('updates the fields given, and clears the ones set to null', async () => {
      const made = await store.create(
        definition('alice', { webhook: 'https://hooks.example.com/a', sessionId: 's1' }),
      );
      const changed = await store.update(made.id, 'alice', {
        cron: '*/5 * * * *',
        enabled: false,
        nextRunAt: null,
        webhook: null,
        sessionId: null,
        options: {},
      });
      assert.ok(changed);
      assert.equal(changed.cron, '*/5 * * * *');
      assert.equal(changed.enabled, false);
      assert.equal(changed.nextRunAt, null);
      assert.equal(changed.webhook, null);
      assert.equal(changed.sessionId, null);
      assert.deepEqual(changed.options, {});
      assert.equal(changed.message, made.message);
      assert.ok(changed.updatedAt >= made.updatedAt);
      assert.deepEqual(await store.get(made.id, 'alice'), changed);
    });

    it('deletes a schedule', async () => {
      const made = await store.create(definition('alice'));
      assert.equal(await store.delete(made.id, 'alice'), true);
      assert.equal(await store.get(made.id, 'alice'), undefined);
      assert.equal(await store.delete(made.id, 'alice'), false);
    });

    it('lists every owner’s enabled schedules for the runner', async () => {
      const alice = await store.create(definition('alice'));
      const bob = await store.create(definition('bob'));
      await store.create(definition('bob', { enabled: false, nextRunAt: null }));
      const ids = (await store.enabled()).map((schedule) => schedule.id).sort();
      assert.deepEqual(ids, [alice.id, bob.id].sort());
    });

    it('counts changes of definitions, not firings', async () => {
      const start = await store.revision();
      const made = await store.create(definition('alice'));
      const created = await store.revision();
      assert.notEqual(created, start);
      await store.recordFiring(made, { runId: 'r1', firedAt: slot, nextRunAt: slot + 86_400_000 });
      assert.equal(await store.revision(), created);
      await store.update(made.id, 'alice', { enabled: false, nextRunAt: null });
      const updated = await store.revision();
      assert.notEqual(updated, created);
      await store.delete(made.id, 'alice');
      assert.notEqual(await store.revision(), updated);
      const other = await opened.another();
      assert.equal(await other.revision(), await store.revision());
    });

    it('records a firing, and keeps a next slot that a change made meanwhile set', async () => {
      const made = await store.create(definition('alice'));
      await store.recordFiring(made, { runId: 'r1', firedAt: slot + 5, nextRunAt: slot + 1000 });
      let stored = await store.get(made.id, 'alice');
      assert.equal(stored?.lastRunAt, slot + 5);
      assert.equal(stored?.lastRunId, 'r1');
      assert.equal(stored?.nextRunAt, slot + 1000);
      assert.equal(stored?.updatedAt, made.updatedAt);
      const changed = await store.update(made.id, 'alice', { nextRunAt: slot + 7000 });
      assert.ok(changed);
      // A firing that saw the schedule before the change leaves the change's next slot.
      await store.recordFiring(
        { id: made.id, updatedAt: made.updatedAt - 1 },
        { runId: 'r2', firedAt: slot + 2000, nextRunAt: slot + 3000 },
      );
      stored = await store.get(made.id, 'alice');
      assert.equal(stored?.lastRunId, 'r2');
      assert.equal(stored?.nextRunAt, slot + 7000);
      // A run started by hand moves no slot.
      await store.recordFiring(changed, { runId: 'r3', firedAt: slot + 2500 });
      stored = await store.get(made.id, 'alice');
      assert.equal(stored?.lastRunId, 'r3');
      assert.equal(stored?.nextRunAt, slot + 7000);
    });

    it('lets one caller claim a slot, and none of a deleted or disabled schedule', async () => {
      const made = await store.create(definition('alice'));
      assert.equal(await store.claimSlot(made.id, slot, 'r1'), true);
      assert.equal(await store.claimSlot(made.id, slot, 'r2'), false);
      assert.equal(await store.claimSlot(made.id, slot + 1000, 'r3'), true);
      const paused = await store.create(definition('alice', { enabled: false, nextRunAt: null }));
      assert.equal(await store.claimSlot(paused.id, slot, 'r4'), false);
      await store.delete(made.id, 'alice');
      assert.equal(await store.claimSlot(made.id, slot + 2000, 'r5'), false);
      assert.equal(await store.claimSlot('unknown', slot, 'r6'), false);
    });

    it('gives each slot to exactly one of many racing stores', async () => {
      const made = await store.create(definition('alice'));
      const stores = [store, await opened.another(), await opened.another()];
      const slots = Array.from({ length: 20 }, (_, index) => slot + index * 1000);
      const outcomes = await Promise.all(
        slots.flatMap((scheduledFor) =>
          stores.flatMap((each, storeIndex) =>
            [0, 1].map(async (attempt) => ({
              scheduledFor,
              won: await each.claimSlot(made.id, scheduledFor, `r${storeIndex}-${attempt}`),
            })),
          ),
        ),
      );
      for (const scheduledFor of slots) {
        const winners = outcomes.filter((item) => item.scheduledFor === scheduledFor && item.won);
        assert.equal(winners.length, 1, `slot ${scheduledFor}`);
      }
    });

    it('forgets old claims', async () => {
      const made = await store.create(definition('alice'));
      await store.claimSlot(made.id, slot, 'r1');
      assert.equal(await store.pruneSlots(Date.now() + 60_000), 1);
      assert.equal(await store.pruneSlots(Date.now() + 60_000), 0);
    });
  });
}
