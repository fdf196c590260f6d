import type { ErrorInfo } from './types.ts';

const keyName = 'yeoul.apiKey';

/** An API answer that was not a success, in the contract's words, or a network failure. */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;

  constructor(info: ErrorInfo, status: number) {
    super(info.message);
    this.code = info.code;
    this.status = status;
  }

  get info(): ErrorInfo {
    return { code: this.code, message: this.message };
  }
}

const unauthorizedListeners = new Set<() => void>();

/** Calls `listener` whenever the server answers 401: the page asks for a key again. */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** Tells the listeners that the server asked for a key (for requests made without apiFetch). */
export function reportUnauthorized(): void {
  setApiKey(null);
  for (const listener of unauthorizedListeners) listener();
}

/** The API key of this browser session (sessionStorage), if one was given. */
export function apiKey(): string | null {
  try {
    return sessionStorage.getItem(keyName);
  } catch {
    return null;
  }
}

export function setApiKey(key: string | null): void {
  try {
    if (key) sessionStorage.setItem(keyName, key);
    else sessionStorage.removeItem(keyName);
  } catch {
    // Storage refused (private mode): the key lasts until the page is closed anyway.
  }
}

/** Request headers with the bearer key when there is one. */
export function authHeaders(extra: Record<string, string> = {}): Record<string, string> {
  const key = apiKey();
  return key ? { ...extra, authorization: `Bearer ${key}` } : extra;
}

/** Reads an error body `{error: {code, message}}`, or names the status when there is none. */
export async function errorOf(response: Response): Promise<ErrorInfo> {
  try {
    const body = (await response.json()) as { error?: Partial<ErrorInfo> };
    if (body.error?.code)
      return { code: body.error.code, message: body.error.message ?? response.statusText };
  } catch {
    // Not JSON: fall through to the status.
  }
  return { code: `http_${response.status}`, message: response.statusText || 'request failed' };
}

/**
 * fetch for the API: adds the key, turns failures into ApiError, and on 401 forgets the
 * key and tells the listeners (the key prompt comes back).
 */
export async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, {
      ...init,
      headers: authHeaders((init.headers ?? {}) as Record<string, string>),
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError({ code: 'network_error', message: (error as Error).message }, 0);
  }
  if (response.ok) return response;
  const info = await errorOf(response);
  if (response.status === 401) reportUnauthorized();
  throw new ApiError(info, response.status);
}

/** GET (or any method without a body) and parse JSON; 204 gives undefined. */
export async function getJson<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await apiFetch(path, init);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** POST a JSON body and parse the JSON answer. */
export function postJson<T>(path: string, body: unknown, init: RequestInit = {}): Promise<T> {
  return getJson<T>(path, {
    ...init,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The error of anything thrown, in the contract's shape. */
export function toErrorInfo(error: unknown): ErrorInfo {
  if (error instanceof ApiError) return error.info;
  return { code: 'client_error', message: (error as Error)?.message ?? String(error) };
}
