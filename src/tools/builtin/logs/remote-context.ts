import type { ToolContext, ToolEnvironment } from '../../types.ts';

/** How long a remote source looks back when the query gives no `since` (Loki allows 721 h). */
export const defaultLookbackMs = 30 * 86_400_000;

/** What fetchJson needs of a tool context, for sources that hold their own fetch. */
export function requestContext(
  signal: AbortSignal,
  fetchFunction: typeof fetch,
): Pick<ToolContext, 'signal' | 'env'> {
  // fetchJson reads only `env.fetch`; a source is built before (and apart from) any tool environment.
  return { signal, env: { fetch: fetchFunction } as ToolEnvironment };
}

/** The time range a remote search covers: the query's, else the last 30 days up to now. */
export function timeRange(
  query: { since?: Date; until?: Date },
  now: Date,
  lookbackMs = defaultLookbackMs,
): { startMs: number; endMs: number } {
  const endMs = query.until?.getTime() ?? now.getTime();
  const startMs = query.since?.getTime() ?? endMs - lookbackMs;
  return { startMs, endMs };
}

/**
 * A service's base URL without trailing slashes, and `user:password@` in it moved into a
 * basic `authorization` header (fetch refuses URLs that hold credentials).
 */
export function baseUrlWithAuth(text: string): {
  root: string;
  headers: Record<string, string>;
  secrets: string[];
} {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // Left for endpointUrl to report as a configuration problem.
    return { root: text, headers: {}, secrets: [] };
  }
  if (url.username === '') return { root: url.href.replace(/\/+$/, ''), headers: {}, secrets: [] };
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  const token = Buffer.from(`${user}:${password}`).toString('base64');
  url.username = '';
  url.password = '';
  return {
    root: url.href.replace(/\/+$/, ''),
    headers: { authorization: `Basic ${token}` },
    secrets: [token, password],
  };
}
