import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NewestEvents } from './newest-events.ts';

describe('NewestEvents', () => {
  it('keeps the newest of many events in any arrival order, newest first', () => {
    const times = Array.from({ length: 1_000 }, (_, index) => (index * 7_919) % 1_000);
    const newest = new NewestEvents(5);
    for (const time of times) newest.offer({ message: `at ${time}` }, time);
    assert.deepEqual(
      newest.toArray().map((event) => event.message),
      ['at 999', 'at 998', 'at 997', 'at 996', 'at 995'],
    );
  });

  it('takes the later arrival as newer when times tie, and missing times as oldest', () => {
    const newest = new NewestEvents(3);
    newest.offer({ message: 'no time, late' }, undefined);
    newest.offer({ message: 'first at 10' }, 10);
    newest.offer({ message: 'second at 10' }, 10);
    newest.offer({ message: 'at 5' }, 5);
    assert.deepEqual(
      newest.toArray().map((event) => event.message),
      ['second at 10', 'first at 10', 'at 5'],
    );
  });

  it('prepares only the events it keeps, and keeps none with a limit of 0', () => {
    const prepared: string[] = [];
    const newest = new NewestEvents(1);
    for (const time of [3, 1, 2, 4]) {
      newest.offer({ message: String(time) }, time, (event) => {
        prepared.push(event.message);
        return event;
      });
    }
    assert.deepEqual(prepared, ['3', '4']);
    const none = new NewestEvents(0);
    none.offer({ message: 'x' }, 1);
    assert.deepEqual(none.toArray(), []);
  });
});
