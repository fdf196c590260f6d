import { APICallError } from '@ai-sdk/provider';
import { StreamProviderError } from 'ai';
import { blockedPort, blockedPortReason } from '../core/index.ts';
import type { ModelFailureReason } from './errors/model-call-error.ts';
import { type RetryDecision, retryAfterMs } from './retry.ts';

/** What a failed model attempt means: its reason, status, whether to retry and when. */
export interface ClassifiedFailure extends RetryDecision {
  reason: ModelFailureReason;
  status: number | undefined;
  detail: string;
}

const invalidResponseNames = new Set([
  'AI_JSONParseError',
  'AI_TypeValidationError',
  'AI_InvalidResponseDataError',
  'AI_NoContentGeneratedError',
  'AI_NoOutputGeneratedError',
  'AI_NoObjectGeneratedError',
  'AI_InvalidToolInputError',
]);

/**
 * Errors the SDK raises before anything is sent: the request itself is wrong (a tool call
 * without its result in the history, an unsupported part), so sending it again cannot help.
 */
const refusedRequestNames = new Set([
  'AI_InvalidArgumentError',
  'AI_InvalidPromptError',
  'AI_InvalidMessageRoleError',
  'AI_InvalidDataContentError',
  'AI_MessageConversionError',
  'AI_MissingToolResultsError',
  'AI_UnsupportedFunctionalityError',
  'AI_UnsupportedModelVersionError',
  'AI_NoSuchModelError',
  'AI_SerializationError',
  'AI_LoadSettingError',
]);

/** Socket error codes that mean the server was never reached: refused, no such host, TLS. */
const unreachableCodes =
  /^(?:ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|CERT_|ERR_TLS_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_|ERR_SSL_)/;

/**
 * Sorts a failed attempt: 429, 408, 409, 5xx, network errors and timeouts are
 * transient (retried, honouring Retry-After); authentication, bad requests (a provider's
 * 400, or a request the SDK refuses before sending) are not.
 */
export function classifyModelError(error: unknown, timedOut: boolean): ClassifiedFailure {
  const detail = describe(error);
  if (timedOut)
    return { reason: 'timeout', status: undefined, retryable: true, detail: 'no answer in time' };
  const refusedPort = blockedPortFailure(error);
  if (refusedPort !== undefined) return refusedPort;
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const retryAfter = retryAfterMs(error.responseHeaders);
    const base = {
      status,
      detail: serverMessage(error.responseBody, error.message) ?? detail,
      ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
    };
    if (status === undefined) {
      const socket = socketCode(error);
      if (socket !== undefined && unreachableCodes.test(socket)) {
        return {
          ...base,
          detail: `${socket}: ${base.detail}`,
          reason: 'unreachable',
          retryable: true,
        };
      }
      return { ...base, reason: 'network', retryable: true };
    }
    // A success status with a body that did not parse: a cut or garbled answer, often passing.
    if (status >= 200 && status < 300)
      return { ...base, reason: 'invalid_response', retryable: true };
    // Gemini refuses a wrong key with 400 and the reason API_KEY_INVALID.
    if (status === 400 && error.responseBody?.includes('API_KEY_INVALID'))
      return { ...base, reason: 'auth', retryable: false };
    return byStatus(status, base);
  }
  // An error the provider read inside a stream that had begun (Bedrock's throttlingException
  // or validationException frames): its status says what it is, as an HTTP one would.
  if (StreamProviderError.isInstance(error) && error.statusCode !== undefined) {
    const type = error.type ? `${error.type}: ` : '';
    const base = { status: error.statusCode, detail: `${type}${error.message}`.slice(0, 300) };
    const sorted = byStatus(error.statusCode, base);
    // A failure the provider calls passing (Bedrock's modelStreamErrorException, 424) is the
    // model not serving, not a request to fix.
    return sorted.reason === 'bad_request' && error.isRetryable
      ? { ...base, reason: 'unavailable', retryable: true }
      : sorted;
  }
  const name = (error as { name?: string } | null)?.name ?? '';
  // The Bedrock provider reports credentials the AWS chain could not find in a plain Error.
  if (name === 'AI_LoadAPIKeyError' || (error instanceof Error && awsCredentialsMissing(error)))
    return { reason: 'auth', status: undefined, retryable: false, detail };
  if (refusedRequestNames.has(name))
    return { reason: 'bad_request', status: undefined, retryable: false, detail };
  if (invalidResponseNames.has(name)) {
    // A garbled or off-schema answer: another attempt may well come back right.
    return { reason: 'invalid_response', status: undefined, retryable: true, detail };
  }
  const socket = socketCode(error);
  if (socket !== undefined && unreachableCodes.test(socket)) {
    return { reason: 'unreachable', status: undefined, retryable: true, detail };
  }
  // fetch() failures, connection resets and truncated streams.
  return { reason: 'network', status: undefined, retryable: true, detail };
}

/** What an HTTP error status (other than 2xx) means for a model call. */
function byStatus(
  status: number,
  base: Omit<ClassifiedFailure, 'reason' | 'retryable'>,
): ClassifiedFailure {
  if (status === 429) return { ...base, reason: 'rate_limited', retryable: true };
  if (status === 408 || status === 409 || status >= 500)
    return { ...base, reason: 'unavailable', retryable: true };
  if (status === 401 || status === 403) return { ...base, reason: 'auth', retryable: false };
  return { ...base, reason: 'bad_request', retryable: false };
}

/**
 * fetch refused the URL's port outright (a WHATWG "bad port": 6000, 6665–6669, …), before any
 * connection: no retry can ever reach it, so it is reported as unreachable, at once, naming
 * the port when the URL shows it (a redirect may have led there instead).
 */
function blockedPortFailure(error: unknown): ClassifiedFailure | undefined {
  let current: unknown = error;
  let url: string | undefined;
  for (let depth = 0; depth < 6 && current instanceof Error; depth += 1) {
    url ??= APICallError.isInstance(current) ? current.url : undefined;
    if (current.message === 'bad port') {
      const port = url === undefined ? undefined : blockedPort(url);
      const detail =
        port === undefined
          ? 'fetch refused a blocked port (a "bad port" in the WHATWG Fetch standard), reached through a redirect; point the base URL at another port'
          : blockedPortReason(port);
      return { reason: 'unreachable', status: undefined, retryable: false, detail };
    }
    current = current.cause;
  }
  return undefined;
}

function awsCredentialsMissing(error: Error): boolean {
  return /^AWS (?:credential provider failed|SigV4 authentication requires)/.test(error.message);
}

/** The socket error code (ECONNREFUSED, …) somewhere in an error's cause chain. */
function socketCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z_]+/.test(code) && !code.startsWith('AI_')) return code;
    const nested = (current as { errors?: unknown[] }).errors?.[0];
    current = current.cause ?? nested;
  }
  return undefined;
}

/**
 * What the server said, when the provider could not read its error body and fell back to
 * the HTTP status text — Ollama answers `{"error": "…"}`, which its provider expects as an
 * object. `undefined` when the provider's own message already says more.
 */
function serverMessage(body: string | undefined, message: string): string | undefined {
  if (body === undefined || body.trim() === '') return undefined;
  let said: unknown;
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown };
    said =
      typeof parsed.error === 'string'
        ? parsed.error
        : ((parsed.error as { message?: unknown } | undefined)?.message ?? parsed.message);
  } catch {
    return undefined;
  }
  if (typeof said !== 'string' || said.trim() === '' || message.includes(said)) return undefined;
  return said.replace(/\s+/g, ' ').slice(0, 300);
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`.replace(/\s+/g, ' ').slice(0, 300);
}
