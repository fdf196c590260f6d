import type { LookupAddress } from 'node:dns';
import type { Agent } from 'undici';
import { loadOnce, scopedSignal } from '../core/index.ts';
import { checkWebhookHost, type WebhookHostRule } from './check-webhook-host.ts';
import type { IpAddress } from './webhook-hosts.ts';

/** What one attempt got: an answer's status, or why none came (`refused`: the host rule said no). */
export type AttemptResult =
  | { status: number; retryAfter?: string }
  | { status: null; error: string; refused?: boolean };

/** What one attempt sends, where, and within how long. */
export interface AttemptRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Aborts the attempt (the deliverer is closing). */
  signal?: AbortSignal;
}

/** The undici package, loaded by the first attempt: a server that sends no webhook never holds it. */
const loadUndici = loadOnce(() => import('undici'));

/**
 * Makes one POST: checks the host rule again, then connects only to the address it allowed
 * (the name's resolution is pinned for the connection), never follows a redirect, and waits
 * at most `timeoutMs` for the answer's status. The answer's body is read and dropped.
 */
export async function sendWebhookAttempt(
  attempt: AttemptRequest,
  rule: WebhookHostRule,
): Promise<AttemptResult> {
  const url = new URL(attempt.url);
  // Loaded before the attempt's clock starts: the first load is not the endpoint's time.
  const { Agent, request } = await loadUndici();
  // One limit for the whole attempt, the name's resolution included: a claim's lease outlasts it.
  const scoped = scopedSignal(attempt.signal, attempt.timeoutMs);
  let agent: Agent | undefined;
  try {
    const check = await untilAborted(checkWebhookHost(url, rule, { connect: true }), scoped.signal);
    if (!check.allowed) {
      return check.reason === 'unresolved'
        ? { status: null, error: check.message }
        : { status: null, error: check.message, refused: true };
    }
    agent = new Agent({
      connect: {
        lookup: pinnedLookup(check.addresses[0] as IpAddress),
        timeout: attempt.timeoutMs,
      },
      keepAliveTimeout: 1,
    });
    const response = await request(url, {
      method: 'POST',
      headers: attempt.headers,
      body: attempt.body,
      dispatcher: agent,
      signal: scoped.signal,
      headersTimeout: attempt.timeoutMs,
      bodyTimeout: attempt.timeoutMs,
    });
    await response.body.dump({ limit: 65_536 }).catch(() => undefined);
    const retryAfter = response.headers['retry-after'];
    const text = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
    return text === undefined
      ? { status: response.statusCode }
      : { status: response.statusCode, retryAfter: text };
  } catch (error) {
    if (scoped.timedOut) return { status: null, error: `no answer within ${attempt.timeoutMs} ms` };
    if (attempt.signal?.aborted) {
      return { status: null, error: 'the deliverer stopped before an answer came' };
    }
    return { status: null, error: describeFailure(error) };
  } finally {
    scoped.release();
    agent?.destroy().catch(() => undefined);
  }
}

/** `promise`, or a rejection as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A `lookup` for net.connect that answers every name with the one address the rule checked. */
function pinnedLookup(address: IpAddress) {
  const text = address.toString();
  const family = address.kind() === 'ipv4' ? 4 : 6;
  return (
    _hostname: string,
    options: { all?: boolean },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    if (options.all) callback(null, [{ address: text, family }]);
    else callback(null, text, family);
  };
}

function describeFailure(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause ?? error;
  const code = (cause as { code?: string }).code;
  const message = cause instanceof Error ? cause.message : String(cause);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
