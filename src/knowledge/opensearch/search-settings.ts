import type { Client } from '@opensearch-project/opensearch';
import { SearchConfigError } from '../errors/search-config-error.ts';
import type { KnowledgeVariables } from '../knowledge-variables.ts';
import { openSearchPackage } from './opensearch-package.ts';

/** Where the OpenSearch index lives and how to sign in, read from `YEOUL_SEARCH_URL`. */
export interface OpenSearchSettings {
  /** The node URL without credentials or query (`https://search.internal:9200`). */
  node: string;
  /** Basic auth, from the URL's user info or `OPENSEARCH_USERNAME` / `OPENSEARCH_PASSWORD`. */
  auth: { username: string; password: string } | undefined;
  /** The alias Yeoul reads and writes (`?index=NAME`, default `yeoul-knowledge`). */
  index: string;
}

/** The default alias of Yeoul's index. */
export const defaultIndexName = 'yeoul-knowledge';

const indexNamePattern = /^[a-z0-9][a-z0-9._-]{0,200}$/;

/**
 * Reads `YEOUL_SEARCH_URL=opensearch:URL` (undefined when unset: the store's own index is
 * used). TLS follows the URL's scheme; every problem is reported at once.
 * @example
 * readSearchSettings({ YEOUL_SEARCH_URL: 'opensearch:https://admin:secret@localhost:9200?index=kb' });
 */
export function readSearchSettings(env: KnowledgeVariables): OpenSearchSettings | undefined {
  const value = env.YEOUL_SEARCH_URL;
  if (value === undefined) return undefined;
  const problems: string[] = [];
  if (!value.startsWith('opensearch:')) {
    throw new SearchConfigError({
      problems: ['YEOUL_SEARCH_URL must be opensearch:URL (e.g. opensearch:http://localhost:9200)'],
    });
  }
  let url: URL;
  try {
    url = new URL(value.slice('opensearch:'.length));
  } catch {
    throw new SearchConfigError({
      problems: [`YEOUL_SEARCH_URL has no valid URL after "opensearch:"`],
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    problems.push(`YEOUL_SEARCH_URL must use http or https, not ${url.protocol.slice(0, -1)}`);
  const index = url.searchParams.get('index') ?? defaultIndexName;
  if (!indexNamePattern.test(index))
    problems.push(
      `YEOUL_SEARCH_URL names index "${index}"; use lower-case letters, digits, ".", "_" and "-"`,
    );
  const unknown = [...url.searchParams.keys()].filter((key) => key !== 'index');
  if (unknown.length > 0)
    problems.push(`YEOUL_SEARCH_URL has unknown parameters: ${unknown.join(', ')} (only index)`);
  const username = url.username
    ? decodeURIComponent(url.username)
    : (env.OPENSEARCH_USERNAME ?? '');
  const password = url.password
    ? decodeURIComponent(url.password)
    : (env.OPENSEARCH_PASSWORD ?? '');
  if ((username === '') !== (password === ''))
    problems.push('OpenSearch credentials need both a user name and a password');
  if (problems.length > 0) throw new SearchConfigError({ problems });
  url.username = '';
  url.password = '';
  url.search = '';
  return {
    node: url.toString().replace(/\/$/, ''),
    auth: username ? { username, password } : undefined,
    index,
  };
}

/** Timeouts of the OpenSearch client. */
export interface OpenSearchClientOptions {
  /** Longest wait for one request, in ms (default 10 000: search answers or fails within it). */
  requestTimeoutMs?: number;
}

/**
 * The official OpenSearch client for these settings, with short timeouts and one retry (the
 * package is loaded by the first call).
 */
export function createOpenSearchClient(
  settings: OpenSearchSettings,
  options: OpenSearchClientOptions = {},
): Client {
  const { Client } = openSearchPackage();
  return new Client({
    node: settings.node,
    ...(settings.auth ? { auth: settings.auth } : {}),
    requestTimeout: options.requestTimeoutMs ?? 10_000,
    pingTimeout: 3_000,
    maxRetries: 1,
    // One node behind a load balancer is the usual set-up: never give up on it for good.
    resurrectStrategy: 'optimistic',
  });
}
