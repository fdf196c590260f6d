import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createToolEnvironment } from '../environment.ts';
import { ToolRegistry } from '../registry.ts';
import { ToolExecutor } from '../tool-executor.ts';
import { describeMoment, getCurrentDatetimeTool } from './get-current-datetime.ts';

const fixedClock = (iso: string) =>
  createToolEnvironment({ dataDir: '/nonexistent', now: () => new Date(iso) });

async function call(args: unknown, iso = '2025-03-14T12:30:05Z') {
  const registry = new ToolRegistry().register(getCurrentDatetimeTool);
  return new ToolExecutor(registry, { env: fixedClock(iso) }).execute({
    id: 'call-1',
    name: 'get_current_datetime',
    args,
  });
}

describe('get_current_datetime', () => {
  it('reports Korean time by default, from the environment clock', async () => {
    const result = await call({});
    assert.equal(result.isError, false);
    assert.deepEqual(JSON.parse(result.content), {
      iso: '2025-03-14T12:30:05.000Z',
      timeZone: 'Asia/Seoul',
      localDateTime: '2025-03-14T21:30:05+09:00',
      date: '2025-03-14',
      time: '21:30:05',
      weekday: 'Friday',
      utcOffset: '+09:00',
    });
  });

  it('rolls the date and weekday over when the zone is past midnight', () => {
    const moment = describeMoment(new Date('2024-12-31T20:00:00Z'), 'Asia/Seoul');
    assert.equal(moment.date, '2025-01-01');
    assert.equal(moment.weekday, 'Wednesday');
    assert.equal(moment.time, '05:00:00');
  });

  it('gives +00:00 for UTC and follows daylight saving time in New York', () => {
    assert.equal(describeMoment(new Date('2025-03-14T12:30:05Z'), 'UTC').utcOffset, '+00:00');
    const summer = describeMoment(new Date('2025-07-01T12:00:00Z'), 'America/New_York');
    const winter = describeMoment(new Date('2025-01-01T12:00:00Z'), 'America/New_York');
    assert.equal(summer.utcOffset, '-04:00');
    assert.equal(winter.utcOffset, '-05:00');
    assert.equal(winter.time, '07:00:00');
  });

  it('handles half-hour offsets and keeps the zone name the caller used', () => {
    const moment = describeMoment(new Date('2025-03-14T12:30:05Z'), 'Asia/Kolkata');
    assert.equal(moment.utcOffset, '+05:30');
    assert.equal(moment.timeZone, 'Asia/Kolkata');
    assert.equal(describeMoment(new Date(0), 'asia/seoul').timeZone, 'Asia/Seoul');
  });

  it('refuses an unknown zone with an example of a valid one', async () => {
    const result = await call({ timeZone: 'Mars/Olympus_Mons' });
    assert.equal(result.isError, true);
    assert.match(result.content, /^Error: unknown time zone "Mars\/Olympus_Mons"/);
    assert.match(result.content, /Asia\/Seoul/);
  });

  it('refuses an empty or overlong zone name as invalid arguments', async () => {
    assert.match((await call({ timeZone: '  ' })).content, /^Error: invalid arguments/);
    assert.match((await call({ timeZone: 'x'.repeat(100) })).content, /^Error: invalid arguments/);
  });

  it('fails clearly when the clock gives an invalid date', async () => {
    const result = await call({}, 'not a date');
    assert.equal(result.content, 'Error: the clock gave an invalid date');
  });
});
