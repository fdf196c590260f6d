// webhookDeliveryP50Ms of `npm run bench:runs`: how long after a run ends its webhook's POST
// reaches a loopback receiver — from the run's `endedAt` (as `GET /api/runs/:id` shows it) to
// the moment the receiver got the request (both read from this machine's clock). Runs are
// started with `POST /api/runs` a few at a time on a fake model with a short delay; every
// delivery must carry a valid signature, and each run must get exactly one.
import { stopProcess } from './ready-process.ts';
import {
  callJson,
  eachLimited,
  type ReceivedDelivery,
  startDelayedModel,
  startReceiver,
  startYeoul,
} from './runs-bench-servers.ts';
import { percentile, summarize, type Target, target } from './stats.ts';

type Log = (...parts: unknown[]) => void;

/** How many runs, how many at once, and the model's delay. */
export interface WebhookDeliveryPlan {
  runs: number;
  concurrency: number;
  modelDelayMs: number;
}

/** The full run's plan, and `--smoke`'s. */
export const webhookDeliveryPlans: Record<'full' | 'smoke', WebhookDeliveryPlan> = {
  full: { runs: 300, concurrency: 10, modelDelayMs: 50 },
  smoke: { runs: 10, concurrency: 5, modelDelayMs: 50 },
};

/** Measures webhookDeliveryP50Ms (goal ≤ 50 ms), with its p99 and the signature check beside it. */
export async function measureWebhookDelivery(options: {
  plan: WebhookDeliveryPlan;
  env: NodeJS.ProcessEnv;
  log: Log;
}): Promise<{ webhookDeliveryP50Ms: Target; [detail: string]: unknown }> {
  const { plan, env, log } = options;
  const receiver = await startReceiver();
  const model = await startDelayedModel(env, plan.modelDelayMs);
  const server = await startYeoul(env, { modelUrl: model.url, webhookHost: receiver.host }).catch(
    async (error: unknown) => {
      await Promise.all([stopProcess(model), receiver.close()]);
      throw error;
    },
  );
  try {
    const arrivals = new Map<string, (delivery: ReceivedDelivery) => void>();
    receiver.onDelivery = (delivery) => arrivals.get(delivery.body.run.runId)?.(delivery);
    log(`webhooks: ${plan.runs} runs, ${plan.concurrency} at a time, each with a webhook`);
    const delays: number[] = [];
    await eachLimited(Array.from({ length: plan.runs }), plan.concurrency, async (_item, index) => {
      const started = await callJson(`${server.url}/api/runs`, {
        message: `오늘 일정 알려줘 (${index})`,
        webhook: `${receiver.url}/hooks`,
      });
      if (started.status !== 202) throw new Error(`POST /api/runs: ${JSON.stringify(started)}`);
      const { runId } = started.body as { runId: string };
      const arrived = new Promise<ReceivedDelivery>((resolve) => arrivals.set(runId, resolve));
      const delivery =
        receiver.received.find((each) => each.body.run.runId === runId) ?? (await arrived);
      const run = (await callJson(`${server.url}/api/runs/${runId}`)).body;
      if (run.status !== 'done') throw new Error(`run ${runId} ended ${run.status}`);
      delays.push(delivery.receivedAt - Date.parse(run.endedAt));
    });
    // Any second delivery of a run would have come by now.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const perRun = new Map<string, number>();
    for (const each of receiver.received)
      perRun.set(each.body.run.runId, (perRun.get(each.body.run.runId) ?? 0) + 1);
    const unsigned = receiver.received.filter((each) => !each.verified).length;
    const repeated = [...perRun.values()].filter((count) => count !== 1).length;
    if (unsigned > 0 || repeated > 0 || perRun.size !== plan.runs) {
      throw new Error(
        `${perRun.size} of ${plan.runs} runs delivered, ${unsigned} signatures wrong, ${repeated} runs delivered more than once`,
      );
    }
    const { p50, p99 } = summarize(delays);
    log(`  from endedAt to the receiver: p50 ${p50} ms, p99 ${p99} ms`);
    return {
      webhookDeliveryP50Ms: target(p50, 50, 'lower'),
      deliveryMs: { p50, p90: percentile(delays, 0.9), p99, max: Math.max(...delays) },
      deliveries: receiver.received.length,
      signaturesVerified: receiver.received.length - unsigned,
      plan,
    };
  } finally {
    await stopProcess(server);
    await stopProcess(model);
    await receiver.close();
  }
}
