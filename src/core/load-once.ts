/**
 * A loader that runs `load` on its first call and hands every later call the same promise:
 * for a package imported on first use (`loadOnce(() => import('undici'))`), so a server that
 * never needs it never holds it. A load that fails is tried again by the next call.
 * @example
 * const loadUndici = loadOnce(() => import('undici'));
 * const { request } = await loadUndici();
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
