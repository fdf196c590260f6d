import { parseJwks, type SetKey } from './jwt-key-material.ts';

/** How often a JWK Set at a URL is fetched again, and how soon an unknown `kid` may fetch it. */
export interface JwksTimings {
  /** Between scheduled fetches (default 10 minutes). */
  refreshMs: number;
  /** The least time between two fetches an unknown `kid` asks for (default 10 s). */
  unknownKeyCooldownMs: number;
  /** How long one fetch may take (default 5 s). */
  timeoutMs: number;
}

/** The timings of a JWK Set at a URL unless a test says otherwise. */
export const defaultJwksTimings: JwksTimings = {
  refreshMs: 10 * 60_000,
  unknownKeyCooldownMs: 10_000,
  timeoutMs: 5_000,
};

/**
 * A JWK Set at a URL: fetched at start, again on a schedule, and when a token names a key
 * the set lacks — at most once per cool-down, so unknown `kid`s never flood the identity
 * provider. A fetch that fails keeps the last good set (and says why to `onFailure`).
 * @example
 * const jwks = new RemoteJwks(new URL('https://issuer.example/.well-known/jwks.json'));
 * await jwks.start();
 * jwks.keys(); // the set's RSA and P-256 keys
 */
export class RemoteJwks {
  readonly #url: URL;
  readonly #timings: JwksTimings;
  readonly #fetch: typeof fetch;
  readonly #onFailure: (problem: string) => void;
  #keys: SetKey[] = [];
  #lastAttempt = Number.NEGATIVE_INFINITY;
  #inFlight: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    url: URL,
    options: {
      timings?: Partial<JwksTimings>;
      fetch?: typeof fetch;
      onFailure?: (problem: string) => void;
    } = {},
  ) {
    this.#url = url;
    this.#timings = { ...defaultJwksTimings, ...options.timings };
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#onFailure = options.onFailure ?? (() => {});
  }

  /** The keys of the last set fetched well (none before the first). */
  keys(): SetKey[] {
    return this.#keys;
  }

  /** Fetches the set now and then on the schedule; a failure here is reported, not thrown. */
  async start(): Promise<void> {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => void this.#refresh(), this.#timings.refreshMs);
    this.#timer.unref();
    await this.#refresh();
  }

  /**
   * Fetches the set again for a token naming a key it lacks, unless a fetch was tried within
   * the cool-down; resolves once the set is as fresh as it may be.
   */
  async refreshForUnknownKey(): Promise<void> {
    if (this.#inFlight) return this.#inFlight;
    if (Date.now() - this.#lastAttempt < this.#timings.unknownKeyCooldownMs) return;
    await this.#refresh();
  }

  /** Stops the schedule. */
  close(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #refresh(): Promise<void> {
    this.#inFlight ??= this.#fetchSet().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  async #fetchSet(): Promise<void> {
    this.#lastAttempt = Date.now();
    try {
      const response = await this.#fetch(this.#url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.#timings.timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`answered ${response.status}`);
      }
      const keys = parseJwks(await response.json());
      if (!keys.ok) throw new Error(keys.problem);
      this.#keys = keys.value;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.#onFailure(
        `fetching the JWK Set at ${this.#url.origin}${this.#url.pathname} failed (${reason}); the last good set stays`,
      );
    }
  }
}
