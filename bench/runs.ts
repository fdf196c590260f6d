// `npm run bench:runs`: background runs, their webhooks, schedules and interrupts, each on a
// `yeoul serve` server of its own (its own process, SQLite) and a fake model with a delay —
// - runsCreateP99Ms: `POST /api/runs` p99 at 100 connections while its runs execute
//   (bench/lib/runs-create-load.ts);
// - webhookDeliveryP50Ms: a run's `endedAt` to a loopback receiver getting its signed POST
//   (bench/lib/webhook-delivery-latency.ts);
// - scheduleLagP99Ms: `startedAt − scheduledFor` with 1,000 schedules, 33–34 firing every second
//   of the measured minute (BENCH_RUNS_SCHEDULE_SECONDS shortens it; bench/lib/schedule-lag.ts);
// - interruptEndP99Ms: an `onBusy: "interrupt"` message to the old run's `done`, the old run
//   waiting on a 5 s model call (bench/lib/interrupt-end.ts); null with a note when the server
//   cannot interrupt.
// `--smoke` runs each part briefly (a check that it works, not a measurement); `--only NAME`
// (create, webhooks, schedules, interrupt) runs one part. Progress goes to stderr; stdout gets
// the summary lines, then one JSON object with `targets`.
import { cpus } from 'node:os';
import { interruptPlans, measureInterruptEnd } from './lib/interrupt-end.ts';
import { measureRunsCreate, runsCreatePlans } from './lib/runs-create-load.ts';
import { measureScheduleLag, scheduleLagPlans } from './lib/schedule-lag.ts';
import { measureWebhookDelivery, webhookDeliveryPlans } from './lib/webhook-delivery-latency.ts';

const smoke = process.argv.includes('--smoke');
const only = process.argv[process.argv.indexOf('--only') + 1];
const runs = (part: string) => !process.argv.includes('--only') || only === part;
const mode = smoke ? 'smoke' : 'full';
// Every server here stays on SQLite in a fresh folder.
const { DATABASE_URL: _databaseUrl, ...env } = process.env;
const log = (...parts: unknown[]) => console.error('[runs]', ...parts);
const startedAt = performance.now();
const details: Record<string, unknown> = {};
const targets: Record<string, unknown> = {};
const notes: string[] = [];

if (runs('create')) {
  const { runsCreateP99Ms, ...rest } = await measureRunsCreate({
    plan: runsCreatePlans[mode],
    env,
    log,
  });
  targets.runsCreateP99Ms = runsCreateP99Ms;
  details.create = rest;
  const load = rest.load as { requestsPerSecond: number; p50Ms: number };
  const paced = rest.paced as { requestsPerSecond: number; p50Ms: number; p99Ms: number };
  console.log(
    `runsCreateP99Ms ${runsCreateP99Ms.value} ms (goal ≤ 20): ${load.requestsPerSecond} runs made a second, p50 ${load.p50Ms} ms (at that rate 100 waiting connections mean ${rest.meanFloorMs} ms); at a steady ${paced.requestsPerSecond}/s: p50 ${paced.p50Ms} ms, p99 ${paced.p99Ms} ms`,
  );
}
if (runs('webhooks')) {
  const { webhookDeliveryP50Ms, ...rest } = await measureWebhookDelivery({
    plan: webhookDeliveryPlans[mode],
    env,
    log,
  });
  targets.webhookDeliveryP50Ms = webhookDeliveryP50Ms;
  details.webhooks = rest;
  const delivery = rest.deliveryMs as { p99: number };
  console.log(
    `webhookDeliveryP50Ms ${webhookDeliveryP50Ms.value} ms (goal ≤ 50): p99 ${delivery.p99} ms, ${rest.signaturesVerified} of ${rest.deliveries} signatures verified`,
  );
}
if (runs('schedules')) {
  const { scheduleLagP99Ms, ...rest } = await measureScheduleLag({
    plan: scheduleLagPlans[mode],
    env,
    log,
  });
  targets.scheduleLagP99Ms = scheduleLagP99Ms;
  details.schedules = rest;
  const perSecond = rest.firingsPerSecond as { min: number; max: number };
  console.log(
    `scheduleLagP99Ms ${scheduleLagP99Ms.value} ms (goal ≤ 1000): ${rest.slots} slots, ${perSecond.min}–${perSecond.max} a second, ${rest.slotsWithoutRun} without a run`,
  );
}
if (runs('interrupt')) {
  const {
    interruptEndP99Ms,
    notes: interruptNotes,
    ...rest
  } = await measureInterruptEnd({
    plan: interruptPlans[mode],
    env,
    log,
  });
  targets.interruptEndP99Ms = interruptEndP99Ms;
  details.interrupt = rest;
  notes.push(...interruptNotes);
  console.log(
    interruptEndP99Ms.value === null
      ? interruptNotes.join('; ')
      : `interruptEndP99Ms ${interruptEndP99Ms.value} ms (goal ≤ 1000)`,
  );
}
console.log(
  JSON.stringify({
    bench: 'runs',
    smoke,
    seconds: Math.round((performance.now() - startedAt) / 1000),
    machine: { cpus: cpus().length, node: process.version },
    ...details,
    ...(notes.length > 0 ? { notes } : {}),
    targets,
  }),
);
