import { YeoulApiError, YeoulClient } from '../../client/index.ts';
import type { ErrorInfo } from './types.ts';

const keyName = 'yeoul.apiKey';

const unauthorizedListeners = new Set<(refusedKey: boolean) => void>();

/**
 * Calls `listener` whenever the server answers 401: the page asks for a key or token again,
 * saying it was refused when the request carried one (`refusedKey`) — a wrong key, an expired
 * token.
 */
export function onUnauthorized(listener: (refusedKey: boolean) => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/**
 * Tells the listeners that the server refused `sentKey` (the key the request carried, null for
 * none): the key is forgotten and asked for again — unless another key was given since, which
 * a late answer to an older request must not wipe.
 */
export function reportUnauthorized(sentKey: string | null): void {
  if (apiKey() !== sentKey) return;
  setApiKey(null);
  for (const listener of unauthorizedListeners) listener(sentKey !== null);
}

/**
 * The credential of this browser session (sessionStorage): an API key or an end-user token,
 * typed or taken from the address; null when none was given.
 */
export function apiKey(): string | null {
  try {
    return sessionStorage.getItem(keyName);
  } catch {
    return null;
  }
}

/** Keeps `key` (an API key or a token) for this browser session; null forgets it. */
export function setApiKey(key: string | null): void {
  try {
    if (key) sessionStorage.setItem(keyName, key);
    else sessionStorage.removeItem(keyName);
  } catch {
    // Storage refused (private mode): the key lasts until the page is closed anyway.
  }
}

/** Request headers with the bearer key when there is one (`key`: this session's). */
export function authHeaders(
  extra: Record<string, string> = {},
  key: string | null = apiKey(),
): Record<string, string> {
  return key ? { ...extra, authorization: `Bearer ${key}` } : extra;
}

/**
 * fetch for the API: adds the key of this browser session, and on 401 forgets that key and
 * tells the listeners (the key prompt comes back).
 */
const consoleFetch: typeof fetch = async (input, init = {}) => {
  const sentKey = apiKey();
  const response = await fetch(input, {
    ...init,
    headers: authHeaders((init.headers ?? {}) as Record<string, string>, sentKey),
  });
  if (response.status === 401) reportUnauthorized(sentKey);
  return response;
};

/**
 * The console's client of the API (`yeoul/client`): this page's origin, the key of this
 * browser session, and a stream that drops rejoined up to 3 times in a row.
 */
export const api = new YeoulClient({
  baseUrl: '',
  fetch: consoleFetch,
  reconnect: { attempts: 3, delayMs: 400 },
});

/** The error of anything thrown, in the contract's shape. */
export function toErrorInfo(error: unknown): ErrorInfo {
  if (error instanceof YeoulApiError) return error.toJSON();
  return { code: 'client_error', message: (error as Error)?.message ?? String(error) };
}
