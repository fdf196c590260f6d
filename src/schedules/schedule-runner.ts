import { createId } from '../core/index.ts';
import { CronSchedule, parseCron } from './cron-schedule.ts';
import type { Schedule, ScheduleStore } from './schedule-store.ts';
import { SlotQueue } from './slot-queue.ts';

/** One slot to start a run for: the runner has claimed it with `runId`. */
export interface ScheduleFire {
  schedule: Schedule;
  /** The slot (epoch milliseconds). */
  scheduledFor: number;
  /** True for the one slot fired at start for the slots missed while no server served. */
  catchUp: boolean;
  /** The run's id, recorded with the slot's claim: the run must carry it. */
  runId: string;
}

/** The time and the one timer the runner uses (a fake one in tests). */
export interface RunnerClock {
  now(): number;
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** What a runner needs: the store, what a firing does, and optionally a clock and a logger. */
export interface ScheduleRunnerOptions {
  store: ScheduleStore;
  /** Starts the slot's run (as `POST /api/runs` would); called only after the claim was won. */
  fire(firing: ScheduleFire): Promise<unknown> | unknown;
  clock?: RunnerClock;
  /** How often the store is asked whether schedules changed elsewhere (default 1 s). */
  pollIntervalMs?: number;
  /** Hears what went wrong (a store that failed, a firing that threw); the runner goes on. */
  onError?(error: unknown, what: string): void;
}

interface Entry {
  schedule: Schedule;
  cron: CronSchedule;
  next: number;
  version: number;
}

const systemClock: RunnerClock = {
  now: Date.now,
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

const hour = 3_600_000;

/**
 * Fires schedules: keeps each enabled schedule's next slot in one sorted queue behind one
 * timer, claims a slot in the store when it comes (exactly one instance or process wins it)
 * and then calls `fire`. On start, a schedule that missed slots fires once, at once, for the
 * latest of them (`catchUp`); the earlier ones are skipped. Changes made elsewhere (another
 * instance, the CLI) are picked up by polling the store's revision; changes made through this
 * instance are followed at once through `track` and `forget`. Only `serve` and `dev` start one.
 * @example
 * const runner = new ScheduleRunner({ store, fire: ({ schedule, runId }) => startRun(schedule, runId) });
 * await runner.start();
 * // … on shutdown
 * await runner.close();
 */
export class ScheduleRunner {
  #store: ScheduleStore;
  #fire: ScheduleRunnerOptions['fire'];
  #clock: RunnerClock;
  #pollIntervalMs: number;
  #onError: (error: unknown, what: string) => void;
  #entries = new Map<string, Entry>();
  #queue = new SlotQueue();
  #versions = 0;
  #startedAt = 0;
  #revision: number | undefined;
  #nextPollAt = 0;
  #nextPruneAt = 0;
  #timer: unknown;
  #armedFor: number | undefined;
  #ticking: Promise<void> | undefined;
  #firings = new Set<Promise<void>>();
  #running = false;

  constructor(options: ScheduleRunnerOptions) {
    this.#store = options.store;
    this.#fire = options.fire;
    this.#clock = options.clock ?? systemClock;
    this.#pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.#onError = options.onError ?? (() => {});
  }

  /** Loads the enabled schedules, fires the catch-up slots, and follows the slots from now on. */
  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    this.#startedAt = this.#clock.now();
    this.#revision = await this.#store.revision();
    for (const schedule of await this.#store.enabled()) this.#follow(schedule, 'start');
    this.#nextPollAt = this.#startedAt + this.#pollIntervalMs;
    this.#nextPruneAt = this.#startedAt;
    this.#wake();
  }

  /** Stops following schedules and waits for the firings under way. */
  async close(): Promise<void> {
    this.#running = false;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#entries.clear();
    this.#queue.clear();
    await this.idle();
  }

  /**
   * Follows a schedule as this instance just stored it (made, changed, paused): from its
   * first slot after now; a disabled one is dropped.
   */
  track(schedule: Schedule): void {
    if (!this.#running) return;
    this.#follow(schedule, 'change');
    this.#arm();
  }

  /** Stops following a schedule (deleted through this instance). */
  forget(scheduleId: string): void {
    this.#entries.delete(scheduleId);
  }

  /** The ids of the schedules followed, with their next slots. */
  followed(): Map<string, number> {
    return new Map([...this.#entries].map(([id, entry]) => [id, entry.next]));
  }

  /** Resolves once the current round and the firings it started have ended. */
  async idle(): Promise<void> {
    while (this.#ticking !== undefined || this.#firings.size > 0) {
      await Promise.all([this.#ticking, ...this.#firings]);
    }
  }

  /**
   * Starts (or replaces) a schedule's entry. At start, a slot stored as next that has passed
   * is kept, so the round fires it as the catch-up; a change is followed from its first slot
   * not yet passed.
   */
  #follow(schedule: Schedule, cause: 'start' | 'change'): void {
    if (!schedule.enabled) {
      this.#entries.delete(schedule.id);
      return;
    }
    const cron = parseCron(schedule.cron, schedule.timezone, this.#clock.now());
    if (!(cron instanceof CronSchedule)) {
      this.#entries.delete(schedule.id);
      this.#onError(new Error(`schedule ${schedule.id}: ${cron.problem}`), 'schedule');
      return;
    }
    const now = this.#clock.now();
    let next = schedule.nextRunAt ?? cron.next(now);
    if (next !== null && next < now && cause === 'change') next = cron.next(now - 1);
    if (next === null) {
      this.#entries.delete(schedule.id);
      return;
    }
    this.#enqueue({ schedule, cron, next, version: 0 });
  }

  #enqueue(entry: Entry): void {
    this.#versions += 1;
    entry.version = this.#versions;
    this.#entries.set(entry.schedule.id, entry);
    this.#queue.push({ at: entry.next, id: entry.schedule.id, version: entry.version });
    // Stale items (schedules changed or dropped) are skipped when read; past a point, rebuild.
    if (this.#queue.size > this.#entries.size * 2 + 1000) {
      this.#queue.clear();
      for (const [id, each] of this.#entries) {
        this.#queue.push({ at: each.next, id, version: each.version });
      }
    }
  }

  /** Arms the one timer for the earliest of the next slot and the next poll. */
  #arm(): void {
    if (!this.#running || this.#ticking !== undefined) return;
    const wake = Math.min(this.#queue.peek()?.at ?? Number.POSITIVE_INFINITY, this.#nextPollAt);
    if (this.#timer !== undefined && this.#armedFor === wake) return;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#armedFor = wake;
    this.#timer = this.#clock.setTimeout(
      () => {
        this.#timer = undefined;
        this.#wake();
      },
      Math.max(0, wake - this.#clock.now()),
    );
  }

  #wake(): void {
    if (!this.#running || this.#ticking !== undefined) return;
    this.#ticking = this.#round().finally(() => {
      this.#ticking = undefined;
      this.#arm();
    });
  }

  /** Fires what is due, then polls the store when its time has come. */
  async #round(): Promise<void> {
    this.#fireDue(this.#clock.now());
    if (this.#clock.now() < this.#nextPollAt) return;
    try {
      await this.#poll();
    } catch (error) {
      this.#onError(error, 'poll');
    }
    this.#nextPollAt = this.#clock.now() + this.#pollIntervalMs;
    this.#fireDue(this.#clock.now());
  }

  #fireDue(now: number): void {
    for (let item = this.#queue.peek(); item !== undefined && item.at <= now; ) {
      this.#queue.pop();
      const entry = this.#entries.get(item.id);
      if (entry !== undefined && entry.version === item.version) this.#fireEntry(entry, now);
      item = this.#queue.peek();
    }
  }

  /** Fires an entry's latest passed slot (earlier ones are skipped) and queues the one after now. */
  #fireEntry(entry: Entry, now: number): void {
    let slot = entry.next;
    const following = entry.cron.next(slot);
    if (following !== null && following <= now) slot = entry.cron.latest(now) ?? slot;
    const catchUp = slot < this.#startedAt;
    const next = entry.cron.next(Math.max(now, slot));
    const schedule = entry.schedule;
    if (next === null) this.#entries.delete(schedule.id);
    else this.#enqueue({ ...entry, next });
    const firing = this.#claimAndFire(schedule, slot, catchUp, next).finally(() => {
      this.#firings.delete(firing);
    });
    this.#firings.add(firing);
  }

  async #claimAndFire(
    schedule: Schedule,
    scheduledFor: number,
    catchUp: boolean,
    next: number | null,
  ): Promise<void> {
    const runId = createId();
    try {
      if (!(await this.#store.claimSlot(schedule.id, scheduledFor, runId))) return;
    } catch (error) {
      this.#onError(error, 'claim');
      return;
    }
    try {
      await this.#fire({ schedule, scheduledFor, catchUp, runId });
    } catch (error) {
      this.#onError(error, 'fire');
    }
    try {
      await this.#store.recordFiring(schedule, {
        runId,
        firedAt: this.#clock.now(),
        nextRunAt: next,
      });
    } catch (error) {
      this.#onError(error, 'record');
    }
  }

  /** Reloads the enabled schedules when the store's revision moved; prunes old claims hourly. */
  async #poll(): Promise<void> {
    const now = this.#clock.now();
    if (now >= this.#nextPruneAt) {
      this.#nextPruneAt = now + hour;
      await this.#store.pruneSlots(now - 24 * hour);
    }
    const revision = await this.#store.revision();
    if (revision === this.#revision || !this.#running) return;
    const enabled = await this.#store.enabled();
    this.#revision = revision;
    const seen = new Set<string>();
    for (const schedule of enabled) {
      seen.add(schedule.id);
      const entry = this.#entries.get(schedule.id);
      if (entry?.schedule.updatedAt !== schedule.updatedAt) this.#follow(schedule, 'change');
    }
    for (const id of this.#entries.keys()) {
      if (!seen.has(id)) this.#entries.delete(id);
    }
  }
}
