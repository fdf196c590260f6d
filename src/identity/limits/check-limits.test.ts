import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { describe, it } from 'node:test';
import { checkLimits } from './check-limits.ts';
import { LimitExceededError } from './errors/limit-exceeded-error.ts';
import { SqliteUsageStore } from './sqlite-usage-store.ts';
import { type LimitSettings, noLimits } from './types.ts';
import { UsageMeter } from './usage-meter.ts';

const store = () => new SqliteUsageStore(new DatabaseSync(':memory:'));
const check = (
  usage: SqliteUsageStore,
  limits: Partial<LimitSettings>,
  now: string,
  exempt = false,
) =>
  checkLimits(usage, {
    owner: 'alice',
    exempt,
    limits: { ...noLimits, ...limits },
    now: new Date(now),
  });

const refusal = async (decision: ReturnType<typeof check>) => {
  const outcome = await decision;
  assert.equal(outcome.accepted, false);
  return (outcome as { error: LimitExceededError }).error;
};

describe('checkLimits', () => {
  it('answers rate_limited with the whole seconds until the oldest request of the window is 60 s old', async () => {
    const usage = store();
    assert.equal(
      (await check(usage, { requestsPerMinute: 2 }, '2025-03-01T12:00:00.000Z')).accepted,
      true,
    );
    assert.equal(
      (await check(usage, { requestsPerMinute: 2 }, '2025-03-01T12:00:20.000Z')).accepted,
      true,
    );
    const error = await refusal(check(usage, { requestsPerMinute: 2 }, '2025-03-01T12:00:30.200Z'));
    assert.ok(error instanceof LimitExceededError);
    assert.equal(error.code, 'rate_limited');
    assert.equal(error.limit, 'requests_per_minute');
    assert.equal(error.retryAfterSeconds, 30); // 29.8 s, rounded up
    assert.match(error.message, /limit of 2 per minute; retry in 30 s$/);
    // Never below 1, even a few milliseconds before the place frees.
    const last = await refusal(check(usage, { requestsPerMinute: 2 }, '2025-03-01T12:00:59.999Z'));
    assert.equal(last.retryAfterSeconds, 1);
  });

  it('answers budget_exceeded until the next 00:00 UTC for the day’s budget', async () => {
    const usage = store();
    await usage.record(
      'alice',
      { llmCalls: 1, inputTokens: 80, outputTokens: 20 },
      new Date('2025-03-01T10:00:00Z'),
    );
    const error = await refusal(check(usage, { tokensPerDay: 100 }, '2025-03-01T23:00:00.000Z'));
    assert.equal(error.code, 'budget_exceeded');
    assert.equal(error.limit, 'tokens_per_day');
    assert.equal(error.retryAfterSeconds, 3600);
    assert.match(error.message, /today \(100\) have reached the daily budget of 100/);
    assert.equal(
      (await check(usage, { tokensPerDay: 100 }, '2025-03-02T00:00:00.000Z')).accepted,
      true,
    );
  });

  it('answers budget_exceeded until the first of next month for the month’s budget, across a year', async () => {
    const usage = store();
    await usage.record(
      'alice',
      { llmCalls: 1, inputTokens: 500, outputTokens: 0 },
      new Date('2025-12-02T10:00:00Z'),
    );
    const error = await refusal(check(usage, { tokensPerMonth: 500 }, '2025-12-31T23:59:00.000Z'));
    assert.equal(error.limit, 'tokens_per_month');
    assert.equal(error.retryAfterSeconds, 60);
    assert.match(error.message, /monthly budget of 500/);
    assert.equal(
      (await check(usage, { tokensPerMonth: 500 }, '2026-01-01T00:00:00.000Z')).accepted,
      true,
    );
  });

  it('counts but never refuses an exempt request (an admin, the command line)', async () => {
    const usage = store();
    await usage.record(
      'alice',
      { llmCalls: 1, inputTokens: 500, outputTokens: 0 },
      new Date('2025-03-01T10:00:00Z'),
    );
    const limits = { requestsPerMinute: 1, tokensPerDay: 1, tokensPerMonth: 1 };
    for (let index = 0; index < 3; index += 1) {
      assert.equal((await check(usage, limits, '2025-03-01T12:00:00Z', true)).accepted, true);
    }
    assert.equal((await usage.days('alice', '2025-03-01', '2025-03-01'))[0]?.requests, 3);
  });
});

describe('UsageMeter', () => {
  it('counts what an admitted run used, and takes back a request whose run never began', async () => {
    let now = new Date('2025-03-01T12:00:00Z');
    const usage = store();
    const meter = new UsageMeter(usage, { ...noLimits, requestsPerMinute: 2 }, { now: () => now });
    const first = await meter.admit('alice', { exempt: false });
    const answer = await first.run(async () => ({
      usage: { llmCalls: 2, inputTokens: 30, outputTokens: 5 },
    }));
    assert.equal(answer.usage.llmCalls, 2);
    const second = await meter.admit('alice', { exempt: false });
    await assert.rejects(
      second.run(async () => {
        throw new Error('refused before the run began');
      }),
      /refused before/,
    );
    // The refunded request frees its place at once.
    now = new Date('2025-03-01T12:00:01Z');
    const third = await meter.admit('alice', { exempt: false });
    await third
      .run(
        async () => {
          throw new Error('failed mid-run');
        },
        () => true,
      )
      .catch(() => undefined);
    await assert.rejects(meter.admit('alice', { exempt: false }), { code: 'rate_limited' });
    const report = await meter.report('alice', { from: '2025-03-01', to: '2025-03-01' });
    assert.deepEqual(report.total, { requests: 2, llmCalls: 2, inputTokens: 30, outputTokens: 5 });
  });

  it('reports the limits and what is left of the budgets, never below 0', async () => {
    const now = new Date('2025-03-10T12:00:00Z');
    const usage = store();
    const meter = new UsageMeter(
      usage,
      { requestsPerMinute: null, tokensPerDay: 100, tokensPerMonth: 1000 },
      { now: () => now },
    );
    await usage.record('alice', { llmCalls: 1, inputTokens: 100, outputTokens: 50 }, now);
    await usage.record(
      'alice',
      { llmCalls: 1, inputTokens: 300, outputTokens: 0 },
      new Date('2025-03-01T00:00:00Z'),
    );
    await usage.record(
      'alice',
      { llmCalls: 1, inputTokens: 999, outputTokens: 0 },
      new Date('2025-02-28T23:59:59Z'),
    );
    const report = await meter.report('alice', { from: '2025-03-05', to: '2025-03-10' });
    assert.deepEqual(report, {
      owner: 'alice',
      from: '2025-03-05',
      to: '2025-03-10',
      days: [{ date: '2025-03-10', requests: 0, llmCalls: 1, inputTokens: 100, outputTokens: 50 }],
      total: { requests: 0, llmCalls: 1, inputTokens: 100, outputTokens: 50 },
      limits: { requestsPerMinute: null, tokensPerDay: 100, tokensPerMonth: 1000 },
      remaining: { tokensToday: 0, tokensThisMonth: 550 },
    });
    const unlimited = new UsageMeter(usage, noLimits, { now: () => now });
    assert.deepEqual(
      (await unlimited.report('alice', { from: '2025-03-10', to: '2025-03-10' })).remaining,
      {
        tokensToday: null,
        tokensThisMonth: null,
      },
    );
  });
});
