import { ToolRequestError } from '../errors/tool-request-error.ts';
import type { ToolContext } from '../types.ts';
import { serviceMessage, statusError } from './status-error.ts';

/** One JSON request a tool makes to an outside service. */
export interface JsonRequest {
  /** The service as named in messages (`Open-Meteo`). */
  service: string;
  url: URL;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Sent as a JSON body. */
  body?: unknown;
  /** Values (API keys) to strip from everything the service sends back. */
  secrets?: Array<string | undefined>;
  /** Largest body accepted, in bytes (default 1 MiB). */
  maxBytes?: number;
  /** Explains a non-2xx status better than the defaults do; `undefined` keeps the default. */
  explainStatus?: (status: number, body: unknown) => Error | undefined;
}

const defaultMaxBytes = 1024 * 1024;
const networkReasons: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed',
};

/**
 * Sends one request with the call's signal and returns the parsed JSON of a 2xx answer.
 * Anything else — unreachable, an error status, an HTML page, a cut-off or malformed body —
 * throws a {@link ToolRequestError} whose message names the problem and a next step.
 */
export async function fetchJson(
  request: JsonRequest,
  context: Pick<ToolContext, 'signal' | 'env'>,
): Promise<unknown> {
  const { service } = request;
  const { signal } = context;
  const secrets = request.secrets ?? [];
  let response: Response;
  try {
    const fetchFunction = context.env.fetch;
    response = await fetchFunction(request.url, {
      method: request.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...request.headers,
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    // The cause is left out on purpose: undici's errors can quote the URL, and the URL can hold a key.
    throw new ToolRequestError({
      service,
      problem: `could not be reached (${networkReason(error)})`,
      hint: 'the service may be down; try again later or answer without it',
    });
  }
  const { status } = response;
  const raw = await readBody(response, request, signal);
  const text = redactSecrets(raw, secrets);
  const parsed = parseJson(text);
  const isHtml = /html/i.test(response.headers.get('content-type') ?? '') || /^\s*</.test(text);
  if (!response.ok) {
    const explained = request.explainStatus?.(status, parsed.ok ? parsed.value : undefined);
    throw explained ?? statusError(service, status, detailOf(parsed, text, isHtml));
  }
  if (isHtml) {
    const hint = 'the endpoint may be misconfigured or the service down; try again later';
    throw new ToolRequestError({
      service,
      problem: 'sent a web page instead of JSON',
      status,
      hint,
    });
  }
  if (text.trim() === '') {
    throw new ToolRequestError({
      service,
      problem: 'sent an empty answer',
      status,
      hint: 'try again',
    });
  }
  if (!parsed.ok) {
    const hint = 'the answer may have been cut off; try again later';
    throw new ToolRequestError({ service, problem: 'sent malformed JSON', status, hint });
  }
  return parsed.value;
}

/** `base` with `params` added to its query; throws when the configured endpoint is no URL. */
export function endpointUrl(service: string, base: string, params: Record<string, string>): URL {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    const hint = 'the server configuration must be fixed';
    throw new ToolRequestError({ service, problem: 'has no valid endpoint URL configured', hint });
  }
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url;
}

async function readBody(response: Response, request: JsonRequest, signal: AbortSignal) {
  if (response.body === null) return '';
  const maxBytes = request.maxBytes ?? defaultMaxBytes;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new ToolRequestError({
          service: request.service,
          problem: `sent an answer larger than ${Math.round(maxBytes / 1024)} KiB`,
          status: response.status,
          hint: 'ask for fewer results',
        });
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ToolRequestError) throw error;
    if (signal.aborted) throw signal.reason;
    throw new ToolRequestError({
      service: request.service,
      problem: 'closed the connection before its answer was complete',
      status: response.status,
      hint: 'try again',
    });
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function detailOf(parsed: ReturnType<typeof parseJson>, text: string, isHtml: boolean) {
  if (isHtml) return 'an HTML error page';
  const message = parsed.ok ? serviceMessage(parsed.value) : text;
  const line = (message ?? '').replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

function networkReason(error: unknown): string {
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  return (code && networkReasons[code]) ?? code ?? 'network error';
}

/** `text` with every secret, plain or URL-encoded, replaced by `[redacted]`. */
function redactSecrets(text: string, secrets: Array<string | undefined>): string {
  let result = text;
  for (const secret of secrets) {
    if (secret === undefined || secret.length < 4) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) {
      result = result.split(form).join('[redacted]');
    }
  }
  return result;
}
