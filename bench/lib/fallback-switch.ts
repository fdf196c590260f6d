// fallbackSwitchOverFailedAttempt: what moving to a fallback model costs beyond the failed
// attempt itself. Three OpenAI-compatible fakes on loopback: a primary that answers 500 after
// ~50 ms, and a fallback that answers at once. The ratio is
//   (p50 of a call through the chain primary → fallback − p50 of the same call to the fallback alone)
//   ÷ p50 of one failed call to the primary alone,
// so 1.0 means the switch adds nothing to the failure it follows (no retry, no back-off, no
// extra work); the goal is ≤ 1.1. The chain's cool-down is 0, so every call tries the primary.
import {
  type ChatModel,
  chatModelFrom,
  ModelCallError,
  readModelConfig,
  resolveModel,
} from '../../src/models/index.ts';
import { startFakeOpenAiServer } from '../../src/testing/internal/index.ts';
import { percentile, ratio, type Target, target } from './stats.ts';

/** The measurement, its parts (ms) and the target it is judged by. */
export interface FallbackSwitchResult {
  fallbackSwitchOverFailedAttempt: Target;
  chainP50Ms: number;
  fallbackAloneP50Ms: number;
  failedPrimaryP50Ms: number;
  samples: number;
}

/**
 * Measures fallbackSwitchOverFailedAttempt: `samples` calls of each kind, interleaved (so
 * that load on the machine hits all three alike), after a warm-up.
 * @example
 * const { fallbackSwitchOverFailedAttempt } = await measureFallbackSwitch();
 */
export async function measureFallbackSwitch(
  options: { samples?: number; failAfterMs?: number; warmup?: number } = {},
): Promise<FallbackSwitchResult> {
  const samples = options.samples ?? 60;
  const failAfterMs = options.failAfterMs ?? 50;
  const primary = await startFakeOpenAiServer([{ kind: 'error', status: 500 }], {
    delayMs: failAfterMs,
    keepRequests: false,
  });
  const fallback = await startFakeOpenAiServer(
    [{ kind: 'text', text: 'The fallback model answers.' }],
    { keepRequests: false },
  );
  try {
    const env = {
      OPENAI_API_KEY: 'bench-key',
      OPENAI_BASE_URL: primary.baseUrl,
      YEOUL_COMPAT_BASE_URL: fallback.baseUrl,
      YEOUL_MODEL_COOLDOWN_MS: 0,
    };
    const chain = resolveModel(
      readModelConfig({ ...env, YEOUL_MODEL: 'openai:primary,compat:fallback' }),
    );
    const fallbackAlone = resolveModel(readModelConfig({ ...env, YEOUL_MODEL: 'compat:fallback' }));
    // The primary alone, failing once: one attempt, as it is tried inside the chain.
    const primaryAlone = chatModelFrom('openai:primary', env, { maxAttempts: 1 });
    const kinds: Array<[ChatModel, number[], boolean]> = [
      [chain, [], false],
      [fallbackAlone, [], false],
      [primaryAlone, [], true],
    ];
    const messages = [{ role: 'user' as const, content: 'Summarise the incident in one line.' }];
    for (let round = 0; round < (options.warmup ?? 5) + samples; round += 1) {
      for (const [model, times, fails] of kinds) {
        const started = performance.now();
        try {
          await model.call({ messages });
          if (fails) throw new Error('the failing primary answered');
        } catch (error) {
          if (!fails || !(error instanceof ModelCallError)) throw error;
        }
        if (round >= (options.warmup ?? 5)) times.push(performance.now() - started);
      }
    }
    const [chainTimes, fallbackTimes, failedTimes] = kinds.map(([, times]) => times) as [
      number[],
      number[],
      number[],
    ];
    const chainP50Ms = percentile(chainTimes, 0.5);
    const fallbackAloneP50Ms = percentile(fallbackTimes, 0.5);
    const failedPrimaryP50Ms = percentile(failedTimes, 0.5);
    return {
      fallbackSwitchOverFailedAttempt: target(
        ratio(chainP50Ms - fallbackAloneP50Ms, failedPrimaryP50Ms),
        1.1,
        'lower',
      ),
      chainP50Ms,
      fallbackAloneP50Ms,
      failedPrimaryP50Ms,
      samples,
    };
  } finally {
    await primary.close();
    await fallback.close();
  }
}
