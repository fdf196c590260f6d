// scheduleLagP99Ms of `npm run bench:runs`: how late a schedule's run starts — `startedAt −
// scheduledFor` of every slot in the measured window (a minute by default) — with 1,000
// enabled schedules defined through the API, each firing twice a minute (`S,S+30 * * * * *`,
// S = its index mod 30), so that every second 33 or 34 of them fire. Each firing is a run on
// a new session on a fake model with a short delay. A slot in the window without a run counts
// with the lag it had when the runs were read (a lower bound), so a missed slot cannot hide.
import { stopProcess } from './ready-process.ts';
import { callJson, eachLimited, startDelayedModel, startYeoul } from './runs-bench-servers.ts';
import { percentile, summarize, type Target, target } from './stats.ts';

type Log = (...parts: unknown[]) => void;

/** How many schedules, how long the measured window, and the model's delay. */
export interface ScheduleLagPlan {
  schedules: number;
  windowSeconds: number;
  modelDelayMs: number;
}

/** The full run's plan (BENCH_RUNS_SCHEDULE_SECONDS shortens its window), and `--smoke`'s. */
export const scheduleLagPlans: Record<'full' | 'smoke', ScheduleLagPlan> = {
  full: {
    schedules: 1000,
    windowSeconds: Number(process.env.BENCH_RUNS_SCHEDULE_SECONDS ?? 60),
    modelDelayMs: 100,
  },
  smoke: { schedules: 1000, windowSeconds: 3, modelDelayMs: 100 },
};

/** The second of the minute (0–29) schedule `index` fires at, and 30 s later. */
const secondOf = (index: number) => index % 30;

/** Measures scheduleLagP99Ms (goal ≤ 1000 ms), with the firings counted per second beside it. */
export async function measureScheduleLag(options: {
  plan: ScheduleLagPlan;
  env: NodeJS.ProcessEnv;
  log: Log;
}): Promise<{ scheduleLagP99Ms: Target; [detail: string]: unknown }> {
  const { plan, env, log } = options;
  const model = await startDelayedModel(env, plan.modelDelayMs);
  const server = await startYeoul(env, { modelUrl: model.url }).catch(async (error: unknown) => {
    await stopProcess(model);
    throw error;
  });
  try {
    log(`schedules: making ${plan.schedules}, each firing twice a minute`);
    const ids: string[] = [];
    await eachLimited(Array.from({ length: plan.schedules }), 10, async (_item, index) => {
      const second = secondOf(index);
      const made = await callJson(`${server.url}/api/schedules`, {
        cron: `${second},${second + 30} * * * * *`,
        message: `정시 보고 (${index})`,
        name: `bench ${index}`,
      });
      if (made.status !== 201) throw new Error(`POST /api/schedules: ${JSON.stringify(made)}`);
      ids[index] = made.body.id;
    });
    // The window starts on a whole second, at least 2 s after the last schedule was made.
    const windowStart = Math.ceil((Date.now() + 2000) / 1000) * 1000;
    const windowEnd = windowStart + plan.windowSeconds * 1000;
    log(`schedules: measuring the slots of ${plan.windowSeconds} s`);
    await new Promise((resolve) => setTimeout(resolve, windowEnd + 3000 - Date.now()));
    const readAt = Date.now();
    const lags: number[] = [];
    const perSecond = new Map<number, number>();
    let missed = 0;
    let late = 0;
    await eachLimited(ids, 10, async (id, index) => {
      const { body } = await callJson(`${server.url}/api/runs?scheduleId=${id}&limit=200`);
      const slots = new Map<number, { startedAt: string | null }>();
      for (const run of body.runs) slots.set(Date.parse(run.scheduledFor), run);
      for (let at = windowStart; at < windowEnd; at += 1000) {
        if (new Date(at).getUTCSeconds() % 30 !== secondOf(index)) continue;
        perSecond.set(at, (perSecond.get(at) ?? 0) + 1);
        const run = slots.get(at);
        if (run === undefined) missed += 1;
        else if (run.startedAt === null) late += 1;
        const startedAt = run?.startedAt == null ? readAt : Date.parse(run.startedAt);
        lags.push(startedAt - at);
      }
    });
    const firingsPerSecond = [...perSecond.values()];
    const { p50, p99 } = summarize(lags);
    log(
      `  ${lags.length} slots, ${Math.min(...firingsPerSecond)}–${Math.max(...firingsPerSecond)} a second; lag p50 ${p50} ms, p99 ${p99} ms; ${missed} without a run, ${late} not started`,
    );
    return {
      scheduleLagP99Ms: target(p99, 1000, 'lower'),
      lagMs: { p50, p90: percentile(lags, 0.9), p99, max: Math.max(...lags) },
      slots: lags.length,
      firingsPerSecond: { min: Math.min(...firingsPerSecond), max: Math.max(...firingsPerSecond) },
      slotsWithoutRun: missed,
      runsNotStarted: late,
      plan,
    };
  } finally {
    await stopProcess(server);
    await stopProcess(model);
  }
}
