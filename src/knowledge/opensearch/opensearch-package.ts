import { createRequire } from 'node:module';

/** The `@opensearch-project/opensearch` module: its client and its error classes. */
export type OpenSearchPackage = typeof import('@opensearch-project/opensearch');

let loaded: OpenSearchPackage | undefined;

/**
 * The OpenSearch client package, loaded on the first call (about 20 MB resident): a server
 * whose search stays in its own store never holds it. Its ES entry point re-exports this same
 * CommonJS module, so its error classes are the ones every client throws.
 */
export function openSearchPackage(): OpenSearchPackage {
  loaded ??= createRequire(import.meta.url)('@opensearch-project/opensearch') as OpenSearchPackage;
  return loaded;
}
