import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDuration, parseTime } from './parse-time.ts';

const now = new Date('2025-03-14T15:00:00Z');
const timeOf = (text: string) => {
  const parsed = parseTime(text, now);
  return parsed.ok ? parsed.value.toISOString() : parsed.problem;
};

describe('parseTime', () => {
  it('reads ISO times with a zone, and times without one as UTC', () => {
    assert.equal(timeOf('2025-03-14T14:05:00+09:00'), '2025-03-14T05:05:00.000Z');
    assert.equal(timeOf('2025-03-14T14:05:00.250Z'), '2025-03-14T14:05:00.250Z');
    assert.equal(timeOf('2025-03-14 14:05'), '2025-03-14T14:05:00.000Z');
    assert.equal(timeOf('2025-03-14'), '2025-03-14T00:00:00.000Z');
  });

  it('reads a duration as that long before now', () => {
    assert.equal(timeOf('15m'), '2025-03-14T14:45:00.000Z');
    assert.equal(timeOf('1h30m'), '2025-03-14T13:30:00.000Z');
    assert.equal(timeOf('2d'), '2025-03-12T15:00:00.000Z');
    assert.equal(timeOf(' 1W '), '2025-03-07T15:00:00.000Z');
  });

  it('explains what it accepts when it cannot read the text', () => {
    assert.equal(
      timeOf('yesterday'),
      '"yesterday" is neither an ISO time (2025-03-14T14:05:00Z) nor a duration ago (15m, 1h, 2d)',
    );
    assert.equal(
      timeOf('2025-02-30T10:00:00Z'),
      '"2025-02-30T10:00:00Z" is not a real date and time',
    );
    assert.match(timeOf('0m'), /is zero/);
  });
});

describe('parseDuration', () => {
  it('adds the parts of a duration, in milliseconds', () => {
    assert.deepEqual(parseDuration('1m30s'), { ok: true, value: 90_000 });
    assert.deepEqual(parseDuration('500ms'), { ok: true, value: 500 });
    assert.equal(parseDuration('1.5h').ok, false);
  });
});
