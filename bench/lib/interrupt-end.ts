// interruptEndP99Ms of `npm run bench:runs`: how soon a message sent with `options.onBusy:
// "interrupt"` stops the session's running run — from the moment the interrupting invoke is
// sent to the moment the old run's stream gets its `done` (`status: "cancelled"`,
// `cancelReason.type: "superseded"`), while the old run waits on a model call that would take
// 5 s. Each try is a new session: a stream whose model call hangs for 5 s, and, once the fake
// model has that call, the interrupting invoke. A server that refuses `onBusy` (400) or lets the
// old run finish uncut is reported as not supporting it (no value), never timed.
import { startFakeOpenAiServer } from '../../src/testing/internal/index.ts';
import { connectionPool, sendJson, sseReader } from './http-client.ts';
import { stopProcess } from './ready-process.ts';
import { callJson, startYeoul } from './runs-bench-servers.ts';
import { percentile, summarize } from './stats.ts';

type Log = (...parts: unknown[]) => void;

/** How many tries, and how long the old run's model call would take. */
export interface InterruptPlan {
  tries: number;
  slowCallMs: number;
}

/** The full run's plan, and `--smoke`'s. */
export const interruptPlans: Record<'full' | 'smoke', InterruptPlan> = {
  full: { tries: 20, slowCallMs: 5000 },
  smoke: { tries: 2, slowCallMs: 5000 },
};

/** The target as reported: `value` null (and `met` false) when the server cannot interrupt. */
export interface NullableTarget {
  value: number | null;
  goal: number;
  better: 'lower';
  met: boolean;
}

/** One try: the old run's end after the interrupt was sent (ms), or why it could not be cut. */
type Outcome = { ms: number } | { unsupported: string };

/**
 * Measures interruptEndP99Ms (goal ≤ 1000 ms). Stops at the first try that shows the server
 * cannot interrupt, and says why in `notes`.
 */
export async function measureInterruptEnd(options: {
  plan: InterruptPlan;
  env: NodeJS.ProcessEnv;
  log: Log;
}): Promise<{ interruptEndP99Ms: NullableTarget; notes: string[]; [detail: string]: unknown }> {
  const { plan, env, log } = options;
  const called = new Map<string, () => void>();
  // A message starting with "slow" waits `slowCallMs` for its answer; any other answers at once.
  const model = await startFakeOpenAiServer([{ kind: 'text', text: '알겠습니다.' }], {
    keepRequests: false,
    delayMs: (request) => {
      const text = String(request.body.messages.findLast((m) => m.role === 'user')?.content);
      called.get(text)?.();
      return text.startsWith('slow') ? plan.slowCallMs : 0;
    },
  });
  const server = await startYeoul(env, { modelUrl: model.baseUrl }).catch(async (error) => {
    await model.close();
    throw error;
  });
  const agent = connectionPool(4);
  const times: number[] = [];
  const notes: string[] = [];
  try {
    log(
      `interrupt: ${plan.tries} tries, the old run waiting on a ${plan.slowCallMs} ms model call`,
    );
    for (let index = 0; index < plan.tries; index += 1) {
      const outcome = await tryOnce(server.url, agent, `interrupt-${index}-${Date.now()}`, index);
      if ('unsupported' in outcome) {
        notes.push(`interruptEndP99Ms not measured: ${outcome.unsupported}`);
        log(`  ${outcome.unsupported}`);
        break;
      }
      times.push(outcome.ms);
    }
  } finally {
    agent.destroy();
    await stopProcess(server);
    await model.close();
  }
  if (notes.length > 0) {
    return {
      interruptEndP99Ms: { value: null, goal: 1000, better: 'lower', met: false },
      notes,
      plan,
    };
  }
  const { p50, p99 } = summarize(times);
  log(`  the old run's done after the interrupt: p50 ${p50} ms, p99 ${p99} ms`);
  return {
    interruptEndP99Ms: { value: p99, goal: 1000, better: 'lower', met: p99 <= 1000 },
    notes,
    endMs: { p50, p90: percentile(times, 0.9), p99, max: Math.max(...times) },
    plan,
  };

  /** Starts the slow run, interrupts it once its model call is out, and times its `done`. */
  async function tryOnce(
    url: string,
    pool: ReturnType<typeof connectionPool>,
    sessionId: string,
    index: number,
  ): Promise<Outcome> {
    const slow = `slow ${index}`;
    const modelHasIt = new Promise<void>((resolve) => called.set(slow, resolve));
    let doneAt = 0;
    // biome-ignore lint/suspicious/noExplicitAny: the done event's data is the invoke body
    let done: any;
    const read = sseReader((event) => {
      if (event.event !== 'done' || doneAt !== 0) return;
      doneAt = performance.now();
      done = JSON.parse(event.data);
    });
    const stream = sendJson(
      `${url}/api/agent/stream`,
      { message: slow, sessionId },
      { agent: pool, onChunk: read, timeoutMs: plan.slowCallMs * 3 },
    );
    await modelHasIt;
    const sentAt = performance.now();
    const interrupting = callJson(`${url}/api/agent/invoke`, {
      message: `next ${index}`,
      sessionId,
      options: { onBusy: 'interrupt' },
    });
    const first = await Promise.race([
      interrupting.then(() => 'answer'),
      stream.then(() => 'done'),
    ]);
    if (first === 'answer') {
      const answer = await interrupting;
      if (answer.status !== 200) {
        await stream;
        return {
          unsupported: `the server refused options.onBusy "interrupt" (${answer.status} ${answer.body?.error?.code ?? ''}: ${answer.body?.error?.message ?? ''})`,
        };
      }
    }
    await stream;
    await interrupting;
    if (done?.status !== 'cancelled' || done?.cancelReason?.type !== 'superseded') {
      return {
        unsupported: `the old run was not cut: its stream ended ${Math.round(doneAt - sentAt)} ms after the interrupt with status "${done?.status}"${done?.cancelReason ? ` (${JSON.stringify(done.cancelReason)})` : ''}`,
      };
    }
    return { ms: Math.round((doneAt - sentAt) * 10) / 10 };
  }
}
