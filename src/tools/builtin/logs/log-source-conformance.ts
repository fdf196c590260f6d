import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { burstStartSeconds, conformanceEvents } from './log-source-conformance-events.ts';
import type { LogEvent, LogQuery, LogQueryResult, LogSource } from './types.ts';

/** A log source holding the conformance dataset, and how to take it down. */
export interface OpenedLogSource {
  source: LogSource;
  close(): Promise<void>;
}

const minuteMs = 60_000;

/**
 * The behaviour every LogSource must have, against one dataset of known counts (133 events;
 * see log-source-events.ts). `open` gets the events, oldest first, and returns a source that
 * holds them: a folder of files, a fake Loki, a fake CloudWatch Logs, a fake Datadog.
 */
export function logSourceConformance(
  name: string,
  open: (events: LogEvent[]) => Promise<OpenedLogSource>,
): void {
  describe(`${name} log source (conformance)`, () => {
    // Six hours ago, whole minutes: inside every back end's default look-back.
    const base = new Date(Math.floor((Date.now() - 6 * 3_600_000) / minuteMs) * minuteMs);
    const events = conformanceEvents(base);
    const at = (seconds: number) => new Date(base.getTime() + seconds * 1000);
    let opened: OpenedLogSource;
    const query = (fields: Partial<LogQuery> = {}): Promise<LogQueryResult> =>
      opened.source.query({ limit: 20, ...fields }, { signal: AbortSignal.timeout(20_000) });
    before(async () => {
      assert.equal(new Set(events.map((event) => event.timestamp)).size, events.length);
      opened = await open(events);
    });
    after(() => opened?.close());

    it('counts every event and lists the newest 20, newest first', async () => {
      const result = await query();
      assert.equal(result.count, 133);
      assert.equal(result.events.length, 20);
      assertNewestFirst(result.events);
      assert.equal(result.events[0]?.timestamp, events.at(-1)?.timestamp);
    });

    it('filters by service, case-insensitively', async () => {
      assert.equal((await query({ service: 'payment-service' })).count, 62);
      assert.equal((await query({ service: 'Payment-Service' })).count, 62);
      assert.equal((await query({ service: 'order-service' })).count, 37);
    });

    it('filters by level, case-insensitively, with warning as warn', async () => {
      assert.equal((await query({ level: 'error' })).count, 31);
      assert.equal((await query({ level: 'ERROR' })).count, 31);
      assert.equal((await query({ level: 'warn' })).count, 7);
    });

    it('filters by HTTP status, one code or a class', async () => {
      assert.equal((await query({ status: { from: 500, to: 500 } })).count, 12);
      assert.equal((await query({ status: { from: 500, to: 599 } })).count, 22);
      const payment5xx = await query({
        service: 'payment-service',
        status: { from: 500, to: 599 },
      });
      assert.equal(payment5xx.count, 15);
    });

    it('filters by text in the message', async () => {
      assert.equal((await query({ contains: 'timed out' })).count, 12);
      assert.equal((await query({ contains: 'timeout' })).count, 9);
      const failedOrders = await query({
        service: 'order-service',
        status: { from: 502, to: 502 },
        contains: 'payment-service returned 500',
      });
      assert.equal(failedOrders.count, 7);
    });

    it('returns payment-service 500s with their fields, newest first', async () => {
      const result = await query({
        service: 'payment-service',
        status: { from: 500, to: 500 },
        level: 'error',
      });
      assert.equal(result.count, 12);
      assertNewestFirst(result.events);
      const newest = result.events[0];
      assert.equal(newest?.timestamp, at(300 * 60 + 11 * 20).toISOString());
      assert.equal(newest?.service, 'payment-service');
      assert.equal(newest?.status, 500);
      assert.equal(newest?.level, 'error');
      assert.equal(newest?.message, 'card-gateway request timed out after 5000 ms for ORD-2011');
    });

    it('keeps events at or after since and before until', async () => {
      const burstStart = at(burstStartSeconds);
      assert.equal((await query({ since: burstStart })).count, 28);
      assert.equal((await query({ until: burstStart })).count, 105);
      const firstMinute = await query({ since: burstStart, until: at(300 * 60) });
      assert.equal(firstMinute.count, 3);
      assert.deepEqual(
        firstMinute.events.map((event) => event.timestamp),
        [at(burstStartSeconds + 50), at(burstStartSeconds + 25), burstStart].map((time) =>
          time.toISOString(),
        ),
      );
    });

    it('counts every match beyond the limit and returns only the newest limit', async () => {
      const result = await query({ service: 'payment-service', level: 'error', limit: 5 });
      assert.equal(result.count, 15);
      assert.equal(result.events.length, 5);
      assertNewestFirst(result.events);
      assert.ok(result.events.every((event) => event.status === 500));
      const one = await query({ limit: 1 });
      assert.deepEqual([one.count, one.events.length], [133, 1]);
      const none = await query({ level: 'error', limit: 0 });
      assert.deepEqual([none.count, none.events.length], [31, 0]);
    });

    it('answers count 0 and no events when nothing matches', async () => {
      assert.deepEqual(await query({ service: 'no-such-service' }), { count: 0, events: [] });
      assert.deepEqual(await query({ status: { from: 404, to: 404 } }), { count: 0, events: [] });
      assert.deepEqual(await query({ until: at(-60) }), { count: 0, events: [] });
    });
  });
}

function assertNewestFirst(events: LogEvent[]): void {
  const times = events.map((event) => Date.parse(event.timestamp ?? ''));
  assert.ok(
    times.every((time) => Number.isFinite(time)),
    'every event has a time',
  );
  for (let index = 1; index < times.length; index += 1) {
    assert.ok(
      (times[index - 1] as number) >= (times[index] as number),
      `events not newest first at ${index}`,
    );
  }
}
