import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scheduleBody, scheduleChangesBody } from './schedule-body.ts';
import { newScheduleOf, scheduleUpdateOf, scheduleView } from './schedule-definition.ts';
import type { Schedule } from './schedule-store.ts';

/** The fields each problem names (the first part of its path). */
function namedFields(result: {
  success: boolean;
  error?: { issues: Array<{ path: PropertyKey[] }> };
}) {
  return (result.error?.issues ?? []).map((issue) => String(issue.path[0] ?? '(body)'));
}

const now = Date.parse('2026-12-07T10:00:00Z');

describe('scheduleBody', () => {
  it('takes every field of a schedule', () => {
    const parsed = scheduleBody.parse({
      cron: '0 9 * * MON-FRI',
      timezone: 'Asia/Seoul',
      message: 'the morning report',
      graph: 'react',
      sessionId: 'reports',
      options: { temperature: 0.3, maxIterations: 5, evaluate: false, longTermMemory: false },
      onBusy: 'interrupt',
      webhook: { url: 'https://hooks.example.com/x', headers: { 'x-token': 'secret' } },
      enabled: false,
      name: 'morning',
    });
    assert.equal(parsed.onBusy, 'interrupt');
  });

  it('names the field of each problem', () => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ cron: '0 0 30 2 *', message: 'm' }, ['cron']],
      [{ cron: 'every day', message: 'm' }, ['cron']],
      [{ cron: '0 9 * * *', timezone: 'Mars/Olympus', message: 'm' }, ['timezone']],
      [{ cron: '0 9 * * *', timezone: '+09:00', message: 'm' }, ['timezone']],
      [{ cron: '0 9 * * *' }, ['message']],
      [{ cron: '0 9 * * *', message: 'm', onBusy: 'queue' }, ['onBusy']],
      [{ cron: '0 9 * * *', message: 'm', name: 'x'.repeat(201) }, ['name']],
      [{ cron: '0 9 * * *', message: 'm', sessionId: 'a b' }, ['sessionId']],
      [{ cron: '0 9 * * *', message: 'm', options: { graph: 'react' } }, ['options']],
      [{ cron: '0 9 * * *', message: 'm', options: { onDisconnect: 'cancel' } }, ['options']],
      [{ cron: '0 9 * * *', message: 'm', options: { onBusy: 'reject' } }, ['options']],
      [{ cron: '0 9 * * *', message: 'm', enabled: 'yes' }, ['enabled']],
      [{ cron: '0 9 * * *', message: 'm', colour: 'red' }, ['(body)']],
    ];
    for (const [body, fields] of cases) {
      assert.deepEqual(namedFields(scheduleBody.safeParse(body)), fields, JSON.stringify(body));
    }
    const unknown = scheduleBody.safeParse({ cron: '* * * * *', message: 'm', colour: 'red' });
    assert.match(unknown.error?.issues[0]?.message ?? '', /colour/);
  });

  it('passes a webhook through as given, for its own checks', () => {
    for (const webhook of ['https://hooks.example.com/x', { url: 'https://x.example' }]) {
      assert.deepEqual(
        scheduleBody.parse({ cron: '* * * * *', message: 'm', webhook }).webhook,
        webhook,
      );
    }
  });
});

describe('newScheduleOf and scheduleUpdateOf', () => {
  const made = newScheduleOf('alice', scheduleBody.parse({ cron: '0 9 * * *', message: 'm' }), {
    now,
    defaultGraph: 'default-graph',
  });
  const stored: Schedule = {
    ...made,
    metadata: {},
    id: 'sched-1',
    createdAt: now,
    updatedAt: now,
    lastRunAt: null,
    lastRunId: null,
  };

  it('fills in the defaults and the first slot', () => {
    assert.equal(made.timezone, 'UTC');
    assert.equal(made.graph, 'default-graph');
    assert.equal(made.onBusy, 'enqueue');
    assert.equal(made.enabled, true);
    assert.equal(made.webhook, null);
    assert.equal(made.nextRunAt, Date.parse('2026-12-08T09:00:00Z'));
  });

  it('recomputes the next slot, none while disabled', () => {
    const later = scheduleUpdateOf(
      stored,
      scheduleChangesBody.parse({ timezone: 'Asia/Seoul' }),
      now,
    );
    assert.ok('update' in later);
    assert.equal(later.update.nextRunAt, Date.parse('2026-12-08T00:00:00Z'));
    const paused = scheduleUpdateOf(stored, scheduleChangesBody.parse({ enabled: false }), now);
    assert.ok('update' in paused);
    assert.equal(paused.update.nextRunAt, null);
    assert.deepEqual(scheduleChangesBody.parse({ webhook: null, name: null }), {
      webhook: null,
      name: null,
    });
  });

  it('refuses a cron that never fires in the zone it ends up with', () => {
    const changes = scheduleChangesBody.safeParse({ timezone: 'Nowhere/Land' });
    assert.deepEqual(namedFields(changes), ['timezone']);
    const outcome = scheduleUpdateOf(stored, { cron: '0 0 31 4 *' }, now);
    assert.deepEqual(outcome, { problems: ['cron: "0 0 31 4 *" never fires'] });
  });

  it('shows a webhook by its URL only, and times in ISO', () => {
    const view = scheduleView({
      ...stored,
      webhook: { url: 'https://x.example', headers: { a: 'b' } },
    });
    assert.deepEqual(view.webhook, { url: 'https://x.example' });
    assert.equal(view.nextRunAt, '2026-12-08T09:00:00.000Z');
    assert.equal('owner' in view, false);
  });
});
