import { isYeoulError } from '../../core/index.ts';
import { SearchUnavailableError } from '../errors/search-unavailable-error.ts';
import type { SearchHealth } from '../types.ts';
import { classifyClusterError } from './cluster-errors.ts';

/** How the monitor checks the cluster and when it may check again. */
export interface ClusterMonitorOptions {
  /** Asks the cluster for the index's health (`green`, `yellow`, `red`, `missing`). */
  probe: () => Promise<string>;
  /** While unavailable, requests fail at once for this long after a check (default 2 000 ms). */
  recheckMs?: number;
  now?: () => number;
  /** Called when the state changes (for a log line). */
  onStateChange?: (health: SearchHealth) => void;
}

/**
 * The cluster's state as Yeoul last saw it. A failed request or a red index makes it
 * unavailable; a successful request or check makes it ok again, so it recovers without a
 * restart. While unavailable, search fails fast instead of waiting on every request.
 */
export class ClusterMonitor {
  #state: SearchHealth['state'] = 'ok';
  #lastError: SearchHealth['lastError'];
  #checkedAt = Number.NEGATIVE_INFINITY;
  #options: ClusterMonitorOptions;

  constructor(options: ClusterMonitorOptions) {
    this.#options = options;
  }

  /** The state now, without asking the cluster. */
  health(): SearchHealth {
    return {
      backend: 'opensearch',
      state: this.#state,
      ...(this.#lastError ? { lastError: this.#lastError } : {}),
    };
  }

  /** Asks the cluster now; a red or missing index, or no answer, makes it unavailable. */
  async check(): Promise<SearchHealth> {
    this.#checkedAt = this.#now();
    try {
      const status = await this.#options.probe();
      if (status === 'green' || status === 'yellow') this.succeed();
      else this.#markUnavailable(`the index health is ${status}`);
    } catch (error) {
      this.fail(error);
    }
    return this.health();
  }

  /** Returns when the cluster may answer; throws SearchUnavailableError when it is known not to. */
  async ensureAvailable(): Promise<void> {
    if (this.#state === 'ok') return;
    const recheckMs = this.#options.recheckMs ?? 2_000;
    if (this.#now() - this.#checkedAt >= recheckMs) await this.check();
    if (this.health().state !== 'ok') throw this.#error();
  }

  /**
   * Records a failed request and returns what to throw: SearchUnavailableError when the
   * cluster cannot serve, else the error itself (a refused request is a bug, not an outage).
   */
  fail(error: unknown): unknown {
    if (isYeoulError(error, 'search_unavailable')) {
      this.#markUnavailable((error as SearchUnavailableError).reason);
      return error;
    }
    const failure = classifyClusterError(error);
    if (!failure.unavailable) return error;
    this.#markUnavailable(failure.reason);
    return this.#error(error);
  }

  /** Records a request the cluster answered. */
  succeed(): void {
    if (this.#state === 'ok') return;
    this.#state = 'ok';
    this.#options.onStateChange?.(this.health());
  }

  #markUnavailable(reason: string): void {
    const changed = this.#state !== 'unavailable';
    this.#state = 'unavailable';
    this.#lastError = {
      code: 'search_unavailable',
      message: reason,
      at: new Date(this.#now()).toISOString(),
    };
    if (changed) this.#options.onStateChange?.(this.health());
  }

  #error(cause?: unknown): SearchUnavailableError {
    return new SearchUnavailableError(
      { backend: 'opensearch', reason: this.#lastError?.message ?? 'unknown' },
      cause === undefined ? {} : { cause },
    );
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }
}
