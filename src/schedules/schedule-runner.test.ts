import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { newScheduleOf } from './schedule-definition.ts';
import { type RunnerClock, type ScheduleFire, ScheduleRunner } from './schedule-runner.ts';
import type { Schedule, ScheduleStore } from './schedule-store.ts';
import { SqliteScheduleStore } from './sqlite-schedule-store.ts';

/** A clock whose time moves only when the test says, running the timers that come due. */
class FakeClock implements RunnerClock {
  time: number;
  timers = new Map<number, { at: number; callback: () => void }>();
  #ids = 0;

  constructor(start: number) {
    this.time = start;
  }

  now = () => this.time;

  setTimeout = (callback: () => void, delayMs: number) => {
    this.#ids += 1;
    this.timers.set(this.#ids, { at: this.time + delayMs, callback });
    return this.#ids;
  };

  clearTimeout = (handle: unknown) => {
    this.timers.delete(handle as number);
  };

  /** Moves to `target`, running each timer at its time and waiting for what it started. */
  async advanceTo(target: number, settle: () => Promise<void>): Promise<void> {
    for (;;) {
      await settle();
      const due = [...this.timers].sort((a, b) => a[1].at - b[1].at)[0];
      if (due === undefined || due[1].at > target) break;
      this.timers.delete(due[0]);
      this.time = Math.max(this.time, due[1].at);
      due[1].callback();
    }
    this.time = target;
  }
}

const start = Date.parse('2026-12-07T10:00:00Z');
const second = 1000;

describe('ScheduleRunner', () => {
  let clock: FakeClock;
  let database: DatabaseSync;
  let store: ScheduleStore;
  let fired: ScheduleFire[];
  let runners: ScheduleRunner[];

  beforeEach(() => {
    clock = new FakeClock(start);
    database = new DatabaseSync(':memory:');
    store = new SqliteScheduleStore(database, { now: clock.now });
    fired = [];
    runners = [];
  });
  afterEach(async () => {
    for (const runner of runners) await runner.close();
    database.close();
  });

  function runner(on: ScheduleStore = store): ScheduleRunner {
    const made = new ScheduleRunner({
      store: on,
      clock,
      fire: (firing) => {
        fired.push(firing);
      },
      onError: (error) => {
        throw error;
      },
    });
    runners.push(made);
    return made;
  }

  const settle = async () => {
    for (const each of runners) await each.idle();
  };
  const advance = (ms: number) => clock.advanceTo(clock.time + ms, settle);

  async function schedule(cron: string, fields: { enabled?: boolean } = {}): Promise<Schedule> {
    const body = { cron, message: 'tick', ...fields };
    return store.create(
      newScheduleOf('alice', body, { now: clock.time, defaultGraph: 'default-graph' }),
    );
  }

  const slotsOf = (id: string) =>
    fired
      .filter((firing) => firing.schedule.id === id)
      .map((firing) => [new Date(firing.scheduledFor).toISOString().slice(11, 19), firing.catchUp]);

  it('fires each slot once, at its time, and records it on the schedule', async () => {
    const every2s = await schedule('*/2 * * * * *');
    const made = runner();
    await made.start();
    await advance(7 * second);
    assert.deepEqual(slotsOf(every2s.id), [
      ['10:00:02', false],
      ['10:00:04', false],
      ['10:00:06', false],
    ]);
    for (const firing of fired) assert.ok(firing.runId.length > 0);
    const stored = await store.get(every2s.id, 'alice');
    assert.equal(stored?.lastRunId, fired.at(-1)?.runId);
    assert.equal(stored?.nextRunAt, start + 8 * second);
  });

  it('fires once at start for the latest missed slot, and a disabled schedule catches nothing up', async () => {
    const everyMinute = await schedule('* * * * *');
    const paused = await schedule('* * * * *', { enabled: false });
    // Ten minutes pass with no server.
    clock.time += 10 * 60 * second + 30 * second;
    await runner().start();
    await advance(0);
    assert.deepEqual(slotsOf(everyMinute.id), [['10:10:00', true]]);
    await advance(60 * second);
    assert.deepEqual(slotsOf(everyMinute.id), [
      ['10:10:00', true],
      ['10:11:00', false],
    ]);
    assert.deepEqual(slotsOf(paused.id), []);
  });

  it('catches up once across a restart, even when two instances start together', async () => {
    const everyMinute = await schedule('* * * * *');
    const first = runner();
    await first.start();
    await advance(60 * second);
    await first.close();
    // Down for a minute and a half: 10:02 passed unseen.
    clock.time += 90 * second;
    await runner().start();
    await runner().start();
    await advance(0);
    assert.deepEqual(slotsOf(everyMinute.id), [
      ['10:01:00', false],
      ['10:02:00', true],
    ]);
    for (const each of runners) await each.close();
    // Back within the same minute: the slot of 10:02 was fired already.
    clock.time += 10 * second;
    await runner().start();
    await advance(0);
    assert.equal(slotsOf(everyMinute.id).length, 2);
  });

  it('fires each slot once with two instances on one store', async () => {
    const every2s = await schedule('*/2 * * * * *');
    await runner().start();
    await runner().start();
    await advance(10 * second);
    assert.deepEqual(
      slotsOf(every2s.id).map(([time]) => time),
      ['10:00:02', '10:00:04', '10:00:06', '10:00:08', '10:00:10'],
    );
  });

  it('picks up schedules made, paused and deleted elsewhere within a poll', async () => {
    const made = runner();
    await made.start();
    const elsewhere = await schedule('*/5 * * * * *');
    const doomed = await schedule('*/5 * * * * *');
    await advance(6 * second);
    assert.deepEqual(slotsOf(elsewhere.id), [['10:00:05', false]]);
    await store.update(elsewhere.id, 'alice', { enabled: false, nextRunAt: null });
    await store.delete(doomed.id, 'alice');
    await advance(30 * second);
    assert.deepEqual(slotsOf(elsewhere.id), [['10:00:05', false]]);
    assert.deepEqual(slotsOf(doomed.id), [['10:00:05', false]]);
    assert.equal(made.followed().size, 0);
  });

  it('follows a change made through its own instance from the first slot after it', async () => {
    const made = runner();
    await made.start();
    const hourly = await schedule('0 * * * *');
    const changed = await store.update(hourly.id, 'alice', {
      cron: '*/3 * * * * *',
      nextRunAt: start + 3 * second,
    });
    assert.ok(changed);
    made.track(changed);
    await advance(3 * second);
    assert.deepEqual(slotsOf(hourly.id), [['10:00:03', false]]);
    made.forget(hourly.id);
    await store.delete(hourly.id, 'alice');
    await advance(10 * second);
    assert.equal(slotsOf(hourly.id).length, 1);
  });

  it('keeps 1,000 schedules behind one timer and fires 20 a second, each slot once', async () => {
    for (let index = 0; index < 1000; index += 1) {
      await schedule(`${index % 50} * * * * *`);
    }
    const made = runner();
    await made.start();
    let mostTimers = 0;
    for (let step = 0; step < 60; step += 1) {
      await advance(second);
      mostTimers = Math.max(mostTimers, clock.timers.size);
    }
    assert.equal(fired.length, 1000);
    assert.equal(new Set(fired.map((firing) => firing.schedule.id)).size, 1000);
    const perSecond = Map.groupBy(fired, (firing) => firing.scheduledFor);
    assert.equal(perSecond.size, 50);
    for (const firings of perSecond.values()) assert.equal(firings.length, 20);
    assert.ok(mostTimers <= 1, `${mostTimers} timers`);
  });
});
