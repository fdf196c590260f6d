import { checkLimits } from './check-limits.ts';
import type { EveryOwnersUsage, LimitSettings, RunUsage, UsageReport } from './types.ts';
import { everyOwnersUsage, type UsageRange, usageReport } from './usage-report.ts';
import type { UsageStore } from './usage-store.ts';

/**
 * The limits and the usage counts of one process, as the server and the command line use
 * them: `admit` a run request (counted, or refused with `LimitExceededError`), settle it when
 * its run ends, and report what owners used. Failing to count a finished run's usage is
 * reported to `onError` and never fails the run.
 * @example
 * const meter = new UsageMeter(store, { requestsPerMinute: 60, tokensPerDay: null, tokensPerMonth: null });
 * const admission = await meter.admit('anonymous', { exempt: false });
 * const payload = await admission.run(() => runner.invoke(request));
 */
export class UsageMeter {
  readonly store: UsageStore;
  readonly limits: LimitSettings;
  #now: () => Date;
  #onError: (error: unknown) => void;

  constructor(
    store: UsageStore,
    limits: LimitSettings,
    options: { now?: () => Date; onError?: (error: unknown) => void } = {},
  ) {
    this.store = store;
    this.limits = limits;
    this.#now = options.now ?? (() => new Date());
    this.#onError = options.onError ?? (() => undefined);
  }

  /** Counts a run request of `owner`; throws `LimitExceededError` (nothing counted) over a limit. */
  async admit(owner: string, options: { exempt: boolean }): Promise<Admission> {
    const decision = await checkLimits(this.store, {
      owner,
      exempt: options.exempt,
      limits: this.limits,
      now: this.#now(),
    });
    if (!decision.accepted) throw decision.error;
    return new Admission(this, owner, decision.acceptedAt);
  }

  /** Adds a run's usage to its owner's day (nothing for a run that used nothing). */
  async record(owner: string, usage: RunUsage): Promise<void> {
    if (usage.llmCalls === 0 && usage.inputTokens === 0 && usage.outputTokens === 0) return;
    try {
      await this.store.record(owner, usage, this.#now());
    } catch (error) {
      this.#onError(error);
    }
  }

  /** Takes back an admitted request whose run never began. */
  async refund(owner: string, acceptedAt: Date): Promise<void> {
    try {
      await this.store.refund(owner, acceptedAt);
    } catch (error) {
      this.#onError(error);
    }
  }

  /** One owner's use in a range, with the limits and what is left of the budgets now. */
  report(owner: string, range: UsageRange): Promise<UsageReport> {
    return usageReport(this.store, owner, range, this.limits, this.#now());
  }

  /** Every owner's use in a range. */
  everyOwner(range: UsageRange): Promise<EveryOwnersUsage> {
    return everyOwnersUsage(this.store, range);
  }

  /** Now, as the meter counts it (tests set the clock). */
  now(): Date {
    return this.#now();
  }
}

/**
 * One accepted run request, to settle once its run ends: `finish` counts the run's usage,
 * `refund` takes the request back when its run never began. Only the first settles it.
 */
export class Admission {
  readonly owner: string;
  readonly acceptedAt: Date;
  #meter: UsageMeter;
  #settled = false;

  constructor(meter: UsageMeter, owner: string, acceptedAt: Date) {
    this.#meter = meter;
    this.owner = owner;
    this.acceptedAt = acceptedAt;
  }

  /** The run ended: the usage it reported (if any) counts. */
  async finish(usage?: RunUsage): Promise<void> {
    if (this.#settled) return;
    this.#settled = true;
    if (usage !== undefined) await this.#meter.record(this.owner, usage);
  }

  /** The request was refused after it was counted, its run never begun: it counts nothing. */
  async refund(): Promise<void> {
    if (this.#settled) return;
    this.#settled = true;
    await this.#meter.refund(this.owner, this.acceptedAt);
  }

  /**
   * Runs `work` as this request's run: the `usage` of its answer counts; a failure refunds the
   * request unless `began()` says the run had begun.
   */
  async run<Answer extends { usage: RunUsage }>(
    work: () => Promise<Answer>,
    began: () => boolean = () => false,
  ): Promise<Answer> {
    let answer: Answer;
    try {
      answer = await work();
    } catch (error) {
      await (began() ? this.finish() : this.refund());
      throw error;
    }
    await this.finish(answer.usage);
    return answer;
  }
}
