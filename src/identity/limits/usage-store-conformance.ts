import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { noLimits } from './types.ts';
import type { AdmitCheck, UsageStore } from './usage-store.ts';

/** A usage store the suite opens, how to open it again on the same data, and how to release it. */
export interface OpenedUsageStore {
  store: UsageStore;
  /** Closes the store and opens another on the same data (a restart). */
  reopen(): Promise<UsageStore>;
  close(): Promise<void> | void;
}

const at = (text: string) => new Date(text);
const second = 1000;
const counted: AdmitCheck = { ...noLimits, enforce: true };
const perMinute = (limit: number, enforce = true): AdmitCheck => ({
  ...noLimits,
  requestsPerMinute: limit,
  enforce,
});
const usage = (input: number, output: number, llmCalls = 1) => ({
  llmCalls,
  inputTokens: input,
  outputTokens: output,
});

/**
 * The behaviour every UsageStore backend must have (SQLite, PostgreSQL): the sliding window,
 * the day and month budgets across UTC boundaries, refunds, reports, exact admissions under
 * concurrency, and counts that survive a restart. `open` gives a fresh, empty store each time.
 */
export function usageStoreConformance(
  name: string,
  open: () => Promise<OpenedUsageStore> | OpenedUsageStore,
): void {
  describe(`${name} usage store (conformance)`, () => {
    let opened: OpenedUsageStore | undefined;
    const fresh = async () => {
      opened = await open();
      return opened.store;
    };
    afterEach(async () => {
      await opened?.close();
      opened = undefined;
    });

    it('counts accepted requests per UTC day and adds up the usage of runs', async () => {
      const store = await fresh();
      assert.deepEqual(await store.admit('alice', counted, at('2025-03-01T23:59:59Z')), {
        accepted: true,
      });
      await store.admit('alice', counted, at('2025-03-02T00:00:00Z'));
      await store.record('alice', usage(100, 20), at('2025-03-02T00:00:01Z'));
      await store.record('alice', usage(5, 1, 2), at('2025-03-02T10:00:00Z'));
      assert.deepEqual(await store.days('alice', '2025-03-01', '2025-03-31'), [
        { date: '2025-03-01', requests: 1, llmCalls: 0, inputTokens: 0, outputTokens: 0 },
        { date: '2025-03-02', requests: 1, llmCalls: 3, inputTokens: 105, outputTokens: 21 },
      ]);
      assert.deepEqual(await store.days('alice', '2025-03-02', '2025-03-02'), [
        { date: '2025-03-02', requests: 1, llmCalls: 3, inputTokens: 105, outputTokens: 21 },
      ]);
      assert.deepEqual(await store.days('bob', '2025-03-01', '2025-03-31'), []);
    });

    it('accepts at most the limit in any 60 seconds, and a place frees when the oldest is 60 s old', async () => {
      const store = await fresh();
      const start = at('2025-03-01T12:00:00Z').getTime();
      for (const offset of [0, 10, 20]) {
        const outcome = await store.admit('alice', perMinute(3), new Date(start + offset * second));
        assert.equal(outcome.accepted, true);
      }
      const refused = await store.admit('alice', perMinute(3), new Date(start + 30 * second));
      assert.deepEqual(refused, {
        accepted: false,
        limit: 'requests_per_minute',
        freedAt: start + 60 * second,
      });
      const justBefore = await store.admit(
        'alice',
        perMinute(3),
        new Date(start + 60 * second - 1),
      );
      assert.equal(justBefore.accepted, false);
      assert.equal(
        (await store.admit('alice', perMinute(3), new Date(start + 60 * second))).accepted,
        true,
      );
      // Now 10 s, 20 s and 60 s are in the window: the next place frees at 70 s.
      const next = await store.admit('alice', perMinute(3), new Date(start + 61 * second));
      assert.deepEqual(next, {
        accepted: false,
        limit: 'requests_per_minute',
        freedAt: start + 70 * second,
      });
      // A refused request counts nothing: 4 accepted, the day says so.
      assert.equal((await store.days('alice', '2025-03-01', '2025-03-01'))[0]?.requests, 4);
      // Other owners are not affected.
      assert.equal(
        (await store.admit('bob', perMinute(3), new Date(start + 61 * second))).accepted,
        true,
      );
    });

    it('counts requests it does not enforce, and they fill the window of later ones', async () => {
      const store = await fresh();
      const start = at('2025-03-01T12:00:00Z').getTime();
      for (let index = 0; index < 5; index += 1) {
        const outcome = await store.admit('admin', perMinute(2, false), new Date(start + index));
        assert.equal(outcome.accepted, true);
      }
      assert.equal((await store.days('admin', '2025-03-01', '2025-03-01'))[0]?.requests, 5);
      const enforced = await store.admit('admin', perMinute(2), new Date(start + 10));
      assert.deepEqual(enforced, {
        accepted: false,
        limit: 'requests_per_minute',
        freedAt: start + 3 + 60 * second,
      });
    });

    it('keeps the latest requests that fit when the limit changes', async () => {
      const store = await fresh();
      const start = at('2025-03-01T12:00:00Z').getTime();
      for (const offset of [0, 1, 2]) {
        await store.admit('alice', perMinute(3), new Date(start + offset * second));
      }
      assert.deepEqual(await store.admit('alice', perMinute(2), new Date(start + 3 * second)), {
        accepted: false,
        limit: 'requests_per_minute',
        freedAt: start + 61 * second,
      });
      // The window of 2 kept the requests at 1 s and 2 s: three more fit under a limit of 5.
      for (const offset of [4, 5, 6]) {
        const outcome = await store.admit('alice', perMinute(5), new Date(start + offset * second));
        assert.equal(outcome.accepted, true, `at ${offset} s`);
      }
      assert.deepEqual(await store.admit('alice', perMinute(5), new Date(start + 7 * second)), {
        accepted: false,
        limit: 'requests_per_minute',
        freedAt: start + 61 * second,
      });
    });

    it('refuses once the day’s tokens reach the budget, and accepts again on the next UTC day', async () => {
      const store = await fresh();
      const daily: AdmitCheck = { ...noLimits, tokensPerDay: 100, enforce: true };
      assert.equal((await store.admit('alice', daily, at('2025-03-01T08:00:00Z'))).accepted, true);
      await store.record('alice', usage(60, 39), at('2025-03-01T08:00:01Z'));
      assert.equal((await store.admit('alice', daily, at('2025-03-01T09:00:00Z'))).accepted, true);
      // A run that started keeps going: its tokens count even past the budget.
      await store.record('alice', usage(10, 10), at('2025-03-01T09:00:01Z'));
      assert.deepEqual(await store.admit('alice', daily, at('2025-03-01T23:59:59.999Z')), {
        accepted: false,
        limit: 'tokens_per_day',
        used: 119,
      });
      assert.equal((await store.admit('alice', daily, at('2025-03-02T00:00:00Z'))).accepted, true);
      assert.equal((await store.admit('bob', daily, at('2025-03-01T23:00:00Z'))).accepted, true);
    });

    it('refuses once the month’s tokens reach the budget, and accepts again on the first of the next month', async () => {
      const store = await fresh();
      const monthly: AdmitCheck = {
        ...noLimits,
        tokensPerDay: 1000,
        tokensPerMonth: 150,
        enforce: true,
      };
      await store.record('alice', usage(50, 0), at('2025-02-28T12:00:00Z'));
      await store.record('alice', usage(50, 50), at('2025-03-01T00:00:00Z'));
      await store.record('alice', usage(40, 9), at('2025-03-15T00:00:00Z'));
      assert.equal(
        (await store.admit('alice', monthly, at('2025-03-20T00:00:00Z'))).accepted,
        true,
      );
      await store.record('alice', usage(1, 0), at('2025-03-20T00:00:01Z'));
      // The month's budget answers before the day's: its wait is the longer.
      const tight = { ...monthly, tokensPerDay: 1 };
      assert.deepEqual(await store.admit('alice', tight, at('2025-03-31T23:59:59Z')), {
        accepted: false,
        limit: 'tokens_per_month',
        used: 150,
      });
      assert.equal(
        (await store.admit('alice', monthly, at('2025-04-01T00:00:00Z'))).accepted,
        true,
      );
    });

    it('takes back a refunded request: its day’s count and its place in the window', async () => {
      const store = await fresh();
      const start = at('2025-03-01T12:00:00Z').getTime();
      await store.admit('alice', perMinute(2), new Date(start));
      await store.admit('alice', perMinute(2), new Date(start + second));
      assert.equal(
        (await store.admit('alice', perMinute(2), new Date(start + 2 * second))).accepted,
        false,
      );
      await store.refund('alice', new Date(start + second));
      assert.equal((await store.days('alice', '2025-03-01', '2025-03-01'))[0]?.requests, 1);
      assert.equal(
        (await store.admit('alice', perMinute(2), new Date(start + 3 * second))).accepted,
        true,
      );
      // A day whose only request was taken back lists no use.
      await store.admit('carol', counted, new Date(start));
      await store.refund('carol', new Date(start));
      assert.deepEqual(await store.days('carol', '2025-03-01', '2025-03-01'), []);
    });

    it('lists every owner with use in a range, by owner, their days oldest first', async () => {
      const store = await fresh();
      await store.admit('bob', counted, at('2025-03-03T00:00:00Z'));
      await store.admit('alice', counted, at('2025-03-02T00:00:00Z'));
      await store.admit('alice', counted, at('2025-03-01T00:00:00Z'));
      await store.admit('dave', counted, at('2025-04-01T00:00:00Z'));
      await store.record('bob', usage(7, 3), at('2025-03-03T00:00:01Z'));
      const owners = await store.everyOwner('2025-03-01', '2025-03-31');
      assert.deepEqual(
        owners.map((entry) => [entry.owner, entry.days.map((day) => day.date)]),
        [
          ['alice', ['2025-03-01', '2025-03-02']],
          ['bob', ['2025-03-03']],
        ],
      );
      assert.deepEqual(owners[1]?.days[0], {
        date: '2025-03-03',
        requests: 1,
        llmCalls: 1,
        inputTokens: 7,
        outputTokens: 3,
      });
    });

    it('accepts exactly the limit of many requests of one owner at once', async () => {
      const store = await fresh();
      const now = at('2025-03-01T12:00:00Z');
      const outcomes = await Promise.all(
        Array.from({ length: 25 }, (_, index) =>
          store.admit('alice', perMinute(7), new Date(now.getTime() + index)),
        ),
      );
      assert.equal(outcomes.filter((outcome) => outcome.accepted).length, 7);
      assert.equal((await store.days('alice', '2025-03-01', '2025-03-01'))[0]?.requests, 7);
    });

    it('keeps its counts, window and budgets across a restart', async () => {
      let store = await fresh();
      const start = at('2025-03-01T12:00:00Z').getTime();
      await store.admit('alice', perMinute(1), new Date(start));
      await store.record('alice', usage(30, 20), new Date(start + second));
      store = await (opened as OpenedUsageStore).reopen();
      assert.deepEqual(await store.days('alice', '2025-03-01', '2025-03-01'), [
        { date: '2025-03-01', requests: 1, llmCalls: 1, inputTokens: 30, outputTokens: 20 },
      ]);
      assert.equal(
        (await store.admit('alice', perMinute(1), new Date(start + 2 * second))).accepted,
        false,
      );
      const daily: AdmitCheck = { ...noLimits, tokensPerDay: 50, enforce: true };
      assert.equal(
        (await store.admit('alice', daily, new Date(start + 3 * second))).accepted,
        false,
      );
    });
  });
}
