import type { HostResolver } from './check-webhook-host.ts';
import { defaultRetryWaitsMs, maxAttempts, retryWaitMs } from './retry-schedule.ts';
import { type AttemptResult, sendWebhookAttempt } from './send-webhook-attempt.ts';
import { attemptHeaders } from './sign-webhook.ts';
import type { WebhookHostEntry } from './webhook-hosts.ts';
import type {
  WebhookAttemptOutcome,
  WebhookDelivery,
  WebhookEnqueueInput,
  WebhookOutbox,
} from './webhook-outbox.ts';

/** One attempt as the deliverer reports it (for `yeoul_webhook_attempts_total{outcome}` and logs). */
export interface WebhookAttemptReport {
  delivery: WebhookDelivery;
  attempt: number;
  outcome: WebhookAttemptOutcome['kind'];
  status: number | null;
  error?: string;
  nextAttemptAt?: number;
}

/** How a deliverer runs: its outbox, its secret and host rule, and the knobs tests turn. */
export interface WebhookDelivererOptions {
  outbox: WebhookOutbox;
  /** `YEOUL_WEBHOOK_SECRET`, the key every attempt is signed with. */
  secret: string;
  /** `YEOUL_WEBHOOK_HOSTS` as read; undefined = public hosts only. */
  hosts?: readonly WebhookHostEntry[] | undefined;
  resolve?: HostResolver | undefined;
  /** This instance's id: the owner of the leases it takes. */
  instanceId: string;
  /** Attempts in flight at once (16): a hanging receiver holds one, never the others. */
  concurrency?: number;
  /** How often the outbox is asked for due deliveries another instance stored (1000 ms). */
  pollMs?: number;
  /** The longest an attempt waits for an answer (10 s). */
  timeoutMs?: number;
  /** How long a claimed delivery is this instance's (the time-out and 5 s). */
  leaseMs?: number;
  /** The waits before attempts 2 … 8 (1 s, 5 s, 30 s, 2 min, 10 min, 1 h, 6 h; each ±10 %). */
  retryWaitsMs?: readonly number[];
  random?: () => number;
  now?: () => number;
  onAttempt?: (report: WebhookAttemptReport) => void;
  /** A store failure while claiming or recording (the deliverer goes on). */
  onError?: (error: unknown) => void;
}

/**
 * Delivers the outbox's deliveries: claims the due ones (woken at once by `enqueue`, else every
 * `pollMs` or when the next retry is due), makes each attempt signed and pinned to an address
 * the host rule allows, and records what it came to — 2xx delivered; no answer, 408, 429 or
 * 5xx retried after the schedule's wait; any other status failed at once; failed after the 8th.
 * @example
 * const deliverer = new WebhookDeliverer({ outbox, secret, instanceId });
 * deliverer.start();
 * await deliverer.enqueue({ runId, event: 'run.done', url, headers, body: { run, result } });
 */
export class WebhookDeliverer {
  #options: WebhookDelivererOptions;
  #now: () => number;
  #inFlight = new Set<Promise<void>>();
  #stopping = new AbortController();
  #loop: Promise<void> | undefined;
  #woken = false;
  #wakeUp: (() => void) | undefined;

  constructor(options: WebhookDelivererOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Starts claiming and delivering (once). */
  start(): void {
    this.#loop ??= this.#run();
  }

  /** Stores a delivery in the outbox and makes its first attempt at once. */
  async enqueue(input: WebhookEnqueueInput): Promise<WebhookDelivery> {
    const delivery = await this.#options.outbox.enqueue(input, this.#now());
    this.wake();
    return delivery;
  }

  /** Looks for due deliveries now (after an enqueue, or a test's clock moved). */
  wake(): void {
    this.#woken = true;
    this.#wakeUp?.();
  }

  /**
   * Stops: claims no more, aborts the attempts in flight (each recorded as an attempt without
   * an answer, so the next start takes it up at once) and waits for them.
   */
  async close(): Promise<void> {
    this.#stopping.abort();
    this.wake();
    await this.#loop;
    await Promise.all(this.#inFlight);
  }

  async #run(): Promise<void> {
    const concurrency = this.#options.concurrency ?? 16;
    while (!this.#stopping.signal.aborted) {
      this.#woken = false;
      const free = concurrency - this.#inFlight.size;
      if (free <= 0) {
        // Every slot is busy: an attempt that ends wakes the loop.
        await this.#sleep(this.#options.pollMs ?? 1000);
        continue;
      }
      const claimed = await this.#claim(free);
      for (const delivery of claimed) this.#track(this.#attempt(delivery));
      if (claimed.length > 0 && claimed.length === free) continue;
      await this.#sleep(await this.#untilNextDue());
    }
  }

  async #claim(limit: number): Promise<WebhookDelivery[]> {
    const timeoutMs = this.#options.timeoutMs ?? 10_000;
    try {
      return await this.#options.outbox.claimDue(
        this.#now(),
        limit,
        this.#options.instanceId,
        this.#options.leaseMs ?? timeoutMs + 5_000,
      );
    } catch (error) {
      this.#options.onError?.(error);
      return [];
    }
  }

  #track(attempt: Promise<void>): void {
    const settled = attempt
      .catch((error: unknown) => this.#options.onError?.(error))
      .finally(() => {
        this.#inFlight.delete(settled);
        this.wake();
      });
    this.#inFlight.add(settled);
  }

  async #untilNextDue(): Promise<number> {
    const pollMs = this.#options.pollMs ?? 1000;
    try {
      const due = await this.#options.outbox.nextDue();
      return due === undefined ? pollMs : Math.max(0, Math.min(pollMs, due - this.#now()));
    } catch (error) {
      this.#options.onError?.(error);
      return pollMs;
    }
  }

  #sleep(ms: number): Promise<void> {
    if (this.#woken || this.#stopping.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wakeUp = () => {
        this.#wakeUp = undefined;
        done();
      };
    });
  }

  async #attempt(delivery: WebhookDelivery): Promise<void> {
    const attempt = delivery.attempts + 1;
    const timeoutMs = this.#options.timeoutMs ?? 10_000;
    const headers = attemptHeaders({
      id: delivery.id,
      event: delivery.event,
      attempt,
      timestamp: Math.floor(this.#now() / 1000),
      body: delivery.body,
      secret: this.#options.secret,
      headers: delivery.headers,
    });
    const result = await sendWebhookAttempt(
      { url: delivery.url, headers, body: delivery.body, timeoutMs, signal: this.#stopping.signal },
      { hosts: this.#options.hosts, resolve: this.#options.resolve },
    );
    const outcome = this.#outcomeOf(result, attempt);
    try {
      await this.#options.outbox.record(delivery.id, outcome);
    } catch (error) {
      this.#options.onError?.(error);
    }
    const report: WebhookAttemptReport = {
      delivery,
      attempt,
      outcome: outcome.kind,
      status: result.status,
    };
    if (outcome.kind !== 'delivered' && outcome.error !== undefined) report.error = outcome.error;
    if (outcome.kind === 'retry') report.nextAttemptAt = outcome.nextAttemptAt;
    this.#options.onAttempt?.(report);
  }

  #outcomeOf(result: AttemptResult, attempt: number): WebhookAttemptOutcome {
    const now = this.#now();
    if (result.status !== null && result.status >= 200 && result.status < 300) {
      return { kind: 'delivered', status: result.status, at: now };
    }
    const error = result.status === null ? result.error : `HTTP ${result.status}`;
    const retried =
      result.status === null
        ? result.refused !== true
        : result.status === 408 || result.status === 429 || result.status >= 500;
    if (!retried || attempt >= maxAttempts) return { kind: 'failed', status: result.status, error };
    const wait = retryWaitMs({
      attempt,
      waitsMs: this.#options.retryWaitsMs ?? defaultRetryWaitsMs,
      random: this.#options.random,
      status: result.status,
      retryAfter: result.status === null ? undefined : result.retryAfter,
    });
    return { kind: 'retry', status: result.status, error, nextAttemptAt: now + wait };
  }
}
