import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CronSchedule, parseCron } from './cron-schedule.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (instant: number | null) => (instant === null ? null : new Date(instant).toISOString());

function cron(expression: string, timezone = 'UTC'): CronSchedule {
  const parsed = parseCron(expression, timezone, at('2026-01-01T00:00:00Z'));
  if (!(parsed instanceof CronSchedule)) throw new Error(parsed.problem);
  return parsed;
}

/** The first `count` slots after `from`, as ISO strings. */
function slots(schedule: CronSchedule, from: string, count: number): Array<string | null> {
  const found: Array<string | null> = [];
  let cursor = at(from);
  for (let index = 0; index < count; index += 1) {
    const next = schedule.next(cursor);
    found.push(iso(next));
    if (next === null) break;
    cursor = next;
  }
  return found;
}

describe('parseCron', () => {
  it('takes 5 fields with steps, ranges with steps, lists and names', () => {
    assert.deepEqual(slots(cron('*/15 * * * *'), '2026-01-01T00:00:00Z', 2), [
      '2026-01-01T00:15:00.000Z',
      '2026-01-01T00:30:00.000Z',
    ]);
    assert.deepEqual(slots(cron('10-40/15 3,5 * * *'), '2026-01-01T00:00:00Z', 4), [
      '2026-01-01T03:10:00.000Z',
      '2026-01-01T03:25:00.000Z',
      '2026-01-01T03:40:00.000Z',
      '2026-01-01T05:10:00.000Z',
    ]);
    assert.deepEqual(slots(cron('0 12 * jan-MAR MON-FRI'), '2026-01-02T13:00:00Z', 1), [
      '2026-01-05T12:00:00.000Z',
    ]);
  });

  it('takes 6 fields, the first one seconds', () => {
    assert.deepEqual(slots(cron('*/2 * * * * *'), '2026-01-01T00:00:00Z', 2), [
      '2026-01-01T00:00:02.000Z',
      '2026-01-01T00:00:04.000Z',
    ]);
  });

  it('reads day-of-week 0 and 7 as Sunday', () => {
    const sunday = ['2026-01-04T00:00:00.000Z'];
    assert.deepEqual(slots(cron('0 0 * * 0'), '2026-01-01T00:00:00Z', 1), sunday);
    assert.deepEqual(slots(cron('0 0 * * 7'), '2026-01-01T00:00:00Z', 1), sunday);
  });

  it('fires on a day matching either restricted day field', () => {
    // The 13th, or any Friday (2 January 2026 is a Friday).
    assert.deepEqual(slots(cron('0 0 13 * 5'), '2026-01-01T00:00:00Z', 4), [
      '2026-01-02T00:00:00.000Z',
      '2026-01-09T00:00:00.000Z',
      '2026-01-13T00:00:00.000Z',
      '2026-01-16T00:00:00.000Z',
    ]);
  });

  it('refuses what is outside the grammar, out of range, or never fires', () => {
    const problem = (expression: string) => {
      const parsed = parseCron(expression, 'UTC');
      return parsed instanceof CronSchedule ? undefined : parsed.problem;
    };
    for (const expression of [
      '* * * *',
      '* * * * * * *',
      '@daily',
      '0 0 L * *',
      '0 0 ? * *',
      '0 0 * * FRI#2',
      '5/10 * * * *',
      '60 * * * *',
      '0 0 * * 8',
      '0 0 32 * *',
      '0 0 * 13 *',
      '',
    ]) {
      assert.ok(problem(expression), expression);
    }
    assert.match(problem('0 0 30 2 *') ?? '', /never fires/);
    assert.match(problem('0 0 31 2,4 *') ?? '', /never fires/);
    assert.match(problem('60 * * * *') ?? '', /minute/);
  });
});

describe('CronSchedule across daylight-saving changes', () => {
  it('skips a slot the clocks jump over (New York, 8 March 2026)', () => {
    assert.deepEqual(slots(cron('30 2 * * *', 'America/New_York'), '2026-03-07T12:00:00Z', 2), [
      '2026-03-09T06:30:00.000Z',
      '2026-03-10T06:30:00.000Z',
    ]);
    assert.deepEqual(slots(cron('*/30 * * * *', 'America/New_York'), '2026-03-08T06:00:00Z', 3), [
      '2026-03-08T06:30:00.000Z', // 01:30 EST
      '2026-03-08T07:00:00.000Z', // 03:00 EDT: 02:00 and 02:30 never happen
      '2026-03-08T07:30:00.000Z',
    ]);
  });

  it('fires a repeated slot once (Berlin, 25 October 2026)', () => {
    // 02:00–02:59 happens twice: first at +02:00 (00:xx UTC), then at +01:00 (01:xx UTC).
    assert.deepEqual(slots(cron('30 2 * * *', 'Europe/Berlin'), '2026-10-24T12:00:00Z', 2), [
      '2026-10-25T00:30:00.000Z',
      '2026-10-26T01:30:00.000Z',
    ]);
    assert.deepEqual(slots(cron('*/30 * * * *', 'Europe/Berlin'), '2026-10-24T23:45:00Z', 4), [
      '2026-10-25T00:00:00.000Z', // 02:00 CEST
      '2026-10-25T00:30:00.000Z', // 02:30 CEST
      '2026-10-25T02:00:00.000Z', // 03:00 CET: the second 02:00 and 02:30 do not fire
      '2026-10-25T02:30:00.000Z',
    ]);
    assert.deepEqual(slots(cron('30 1-2 * * *', 'America/New_York'), '2026-10-31T12:00:00Z', 3), [
      '2026-11-01T05:30:00.000Z', // 01:30 EDT
      '2026-11-01T07:30:00.000Z', // 02:30 EST (the second 01:30 is skipped)
      '2026-11-02T06:30:00.000Z',
    ]);
  });

  it('finds the latest slot at or before an instant with the same rules', () => {
    const berlin = cron('*/30 * * * *', 'Europe/Berlin');
    assert.equal(iso(berlin.latest(at('2026-10-25T01:45:00Z'))), '2026-10-25T00:30:00.000Z');
    assert.equal(iso(berlin.latest(at('2026-10-25T02:00:00Z'))), '2026-10-25T02:00:00.000Z');
    const newYork = cron('30 2 * * *', 'America/New_York');
    assert.equal(iso(newYork.latest(at('2026-03-09T00:00:00Z'))), '2026-03-07T07:30:00.000Z');
  });
});
