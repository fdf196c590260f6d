import { isYeoulError } from '../../core/index.ts';
import { SearchConfigError } from '../errors/search-config-error.ts';
import { SearchUnavailableError } from '../errors/search-unavailable-error.ts';
import { openSearchPackage } from './opensearch-package.ts';

/** What a failed cluster request means for Yeoul. */
export interface ClusterFailure {
  /** True when the cluster cannot serve (unreachable, overloaded, red, index gone): search is unavailable. */
  unavailable: boolean;
  /** A few words for people and for `lastError`, without credentials. */
  reason: string;
  /** OpenSearch's error type when it answered (`index_not_found_exception`). */
  type: string | undefined;
  status: number | undefined;
}

/** The OpenSearch error type and reason of a response error, when it has them. */
export function responseErrorOf(
  error: unknown,
): { status: number; type: string | undefined; reason: string | undefined } | undefined {
  if (!(error instanceof openSearchPackage().errors.ResponseError)) return undefined;
  const body = error.meta.body as
    | { error?: { type?: string; reason?: string } | string }
    | undefined;
  const detail = typeof body?.error === 'object' ? body.error : undefined;
  return {
    status: error.statusCode,
    type: detail?.type,
    reason: detail?.reason ?? (typeof body?.error === 'string' ? body.error : undefined),
  };
}

/**
 * Sorts a failed request: no connection, a time-out, 5xx, 429, 401/403 and a missing
 * index make the cluster unavailable; a 400 or 409 is a refused request (a bug or a
 * conflict) and is not a sign of an unavailable cluster.
 */
export function classifyClusterError(error: unknown): ClusterFailure {
  const { errors } = openSearchPackage();
  if (error instanceof errors.TimeoutError)
    return { unavailable: true, reason: 'request timed out', type: undefined, status: undefined };
  if (error instanceof errors.ConnectionError || error instanceof errors.NoLivingConnectionsError) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    return {
      unavailable: true,
      reason: `no connection: ${code ?? error.message.replace(/\s+/g, ' ').slice(0, 160)}`,
      type: undefined,
      status: undefined,
    };
  }
  const response = responseErrorOf(error);
  if (response) {
    const detail = `${response.status}${response.type ? ` ${response.type}` : ''}`;
    const reason = response.reason ? `${detail}: ${response.reason}` : detail;
    const refused = response.status === 400 || response.status === 409;
    return { unavailable: !refused, reason, type: response.type, status: response.status };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { unavailable: false, reason: message, type: undefined, status: undefined };
}

/**
 * A failed request of a start-up or maintenance step (creating or rebuilding the index) as
 * a Yeoul error: refused credentials or requests are `search_config_invalid`, an
 * unreachable cluster `search_unavailable`; other errors pass through.
 */
export function asClusterStartError(error: unknown): unknown {
  if (isYeoulError(error)) return error;
  const failure = classifyClusterError(error);
  if (failure.status === 401 || failure.status === 403) {
    return new SearchConfigError(
      {
        problems: [
          `OpenSearch refused the credentials (${failure.reason}); check YEOUL_SEARCH_URL's user info or OPENSEARCH_USERNAME and OPENSEARCH_PASSWORD`,
        ],
      },
      { cause: error },
    );
  }
  if (failure.unavailable)
    return new SearchUnavailableError(
      { backend: 'opensearch', reason: failure.reason },
      { cause: error },
    );
  if (failure.status !== undefined) {
    return new SearchConfigError(
      { problems: [`OpenSearch refused Yeoul's request (${failure.reason})`] },
      { cause: error },
    );
  }
  return error;
}
