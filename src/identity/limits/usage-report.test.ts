import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseUsageRange } from './usage-report.ts';

const now = new Date('2025-03-10T15:00:00Z');

describe('parseUsageRange', () => {
  it('defaults to the 30 days up to today (UTC), or up to `to`', () => {
    assert.deepEqual(parseUsageRange({}, now), { ok: true, from: '2025-02-09', to: '2025-03-10' });
    assert.deepEqual(parseUsageRange({ to: '2025-01-31' }, now), {
      ok: true,
      from: '2025-01-02',
      to: '2025-01-31',
    });
    assert.deepEqual(parseUsageRange({ from: '2025-03-01' }, now), {
      ok: true,
      from: '2025-03-01',
      to: '2025-03-10',
    });
  });

  it('names the parameter of a date that is not one', () => {
    for (const [given, param] of [
      [{ from: '2025-3-1' }, 'from'],
      [{ to: '2025-02-30' }, 'to'],
      [{ from: 'yesterday' }, 'from'],
      [{ to: '2025-03-10T00:00:00Z' }, 'to'],
    ] as const) {
      const parsed = parseUsageRange(given, now);
      assert.equal(parsed.ok, false);
      assert.equal((parsed as { param: string }).param, param);
      assert.match((parsed as { message: string }).message, new RegExp(`^${param}: `));
    }
  });

  it('refuses from after to, and a range over 366 days', () => {
    assert.deepEqual(parseUsageRange({ from: '2025-03-02', to: '2025-03-01' }, now), {
      ok: false,
      param: 'from',
      message: 'from: 2025-03-02 is after to (2025-03-01)',
    });
    assert.equal(parseUsageRange({ from: '2024-01-01', to: '2024-12-31' }, now).ok, true); // 366 days
    const long = parseUsageRange({ from: '2024-01-01', to: '2025-01-01' }, now);
    assert.equal(long.ok, false);
    assert.match((long as { message: string }).message, /367 days; a range covers at most 366/);
  });
});
