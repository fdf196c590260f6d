import type { LanguageModel } from 'ai';
import { neverAbortedSignal, scopedSignal } from '../core/index.ts';
import { noteAnsweringModel } from './answering-model.ts';
import { type ClassifiedFailure, classifyModelError } from './classify-error.ts';
import { ModelCallError } from './errors/model-call-error.ts';
import type { ModelChain, ModelLink } from './model-chain.ts';
import type { ModelHealth } from './model-health.ts';
import { RetryFailure, withRetries } from './retry.ts';
import type { ModelSettings } from './types.ts';

/** One attempt of a call on one model: its signal, whether text has streamed, the model. */
export type ModelAttempt<T> = (
  signal: AbortSignal,
  state: { emitted: boolean },
  languageModel: LanguageModel,
) => Promise<T>;

/** What a call goes through: the chain, its settings and the health every outcome is told to. */
export interface ChainedModel {
  readonly chain: ModelChain;
  readonly settings: ModelSettings;
  readonly health: ModelHealth;
}

/** One failed attempt, sorted, and whether text had already streamed (then no retry). */
class AttemptFailure extends Error {
  readonly failure: ClassifiedFailure;
  readonly emitted: boolean;

  constructor(failure: ClassifiedFailure, emitted: boolean, cause: unknown) {
    super(failure.detail, { cause });
    this.failure = failure;
    this.emitted = emitted;
  }
}

/** What one model made of a call: its value, or its failure and whether the next may take over. */
type LinkOutcome<T> =
  | { ok: true; value: T; attempts: number }
  | { ok: false; error: ModelCallError; movable: boolean };

/**
 * Runs a call through a model chain: each model not cooling down in turn, the last with its
 * retries, the others once (no retry, no back-off). A failure moves on at once to the next
 * model unless the request was refused (400) or text had already streamed; a model the call
 * moved on from cools down. Throws the ModelCallError of the last model tried when none
 * answered; a cancelled call rejects with the signal's reason.
 */
export async function callThroughChain<T>(
  model: ChainedModel,
  callerSignal: AbortSignal | undefined,
  attempt: ModelAttempt<T>,
): Promise<{ value: T; attempts: number; model: string }> {
  const caller = callerSignal ?? neverAbortedSignal;
  const candidates = model.chain.candidates();
  let attempts = 0;
  for (const [index, link] of candidates.entries()) {
    const next = candidates[index + 1];
    const maxAttempts = next === undefined ? model.settings.maxAttempts : 1;
    const outcome = await tryModel(caller, link, model.settings, maxAttempts, attempt);
    if (outcome.ok) {
      model.chain.answered(link);
      link.health.recordSuccess(link.name);
      model.health.recordSuccess(link.name);
      noteAnsweringModel(link.name);
      return { value: outcome.value, attempts: attempts + outcome.attempts, model: link.name };
    }
    attempts += outcome.error.attempts;
    const movesOn = next !== undefined && outcome.movable;
    if (movesOn) model.chain.coolDown(link);
    link.health.recordFailure(outcome.error);
    model.health.recordFailure(outcome.error, movesOn ? next.name : undefined);
    if (!movesOn) throw outcome.error;
  }
  throw new Error('unreachable: the last model of a chain answers or throws');
}

/** One model's attempts at a call, each under the time-out, retried while transient. */
async function tryModel<T>(
  caller: AbortSignal,
  link: ModelLink,
  settings: ModelSettings,
  maxAttempts: number,
  attempt: ModelAttempt<T>,
): Promise<LinkOutcome<T>> {
  try {
    const { value, attempts } = await withRetries(
      async () => {
        const scope = scopedSignal(caller, settings.timeoutMs);
        const state = { emitted: false };
        try {
          return await attempt(scope.signal, state, link.languageModel);
        } catch (cause) {
          if (caller.aborted) throw cause;
          throw new AttemptFailure(classifyModelError(cause, scope.timedOut), state.emitted, cause);
        } finally {
          scope.release();
        }
      },
      {
        maxAttempts,
        baseDelayMs: settings.retryBaseDelayMs,
        maxDelayMs: settings.retryMaxDelayMs,
        signal: caller,
        classify: (error) => {
          const { failure, emitted } = error as AttemptFailure;
          return emitted ? { retryable: false } : failure;
        },
      },
    );
    return { ok: true, value, attempts };
  } catch (error) {
    if (caller.aborted || !(error instanceof RetryFailure)) throw error;
    const { failure, cause, emitted } = error.lastError as AttemptFailure;
    const failed = new ModelCallError({
      reason: failure.reason,
      ...(failure.status === undefined ? {} : { status: failure.status }),
      attempts: error.attempts,
      detail: failure.detail,
      model: link.name,
      cause,
    });
    // A refused request would be refused by the next model too, and text already streamed
    // cannot be taken back.
    return { ok: false, error: failed, movable: !emitted && failure.reason !== 'bad_request' };
  }
}
