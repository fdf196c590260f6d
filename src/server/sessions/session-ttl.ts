import type { FastifyBaseLogger } from 'fastify';
import type { Runtime } from '../runtime/create-runtime.ts';
import { pruneSessions } from './prune-sessions.ts';

/** How often the server looks for sessions past `YEOUL_SESSION_TTL_DAYS`. */
const ttlCheckIntervalMs = 60 * 60 * 1000;

/**
 * Deletes sessions idle `YEOUL_SESSION_TTL_DAYS` days: once at start, then every hour,
 * logging what went. Returns how to stop it (nothing to stop without a TTL).
 */
export function startSessionTtl(runtime: Runtime, logger: FastifyBaseLogger): () => void {
  const days = runtime.config.sessionTtlDays;
  if (days === undefined) return () => undefined;
  let busy = false;
  const prune = () => {
    if (busy) return;
    busy = true;
    void pruneSessions(runtime, { olderThanMs: days * 86_400_000 })
      .then((report) => {
        if (report.removed + report.keptAwaitingApproval === 0) return;
        logger.info(
          {
            removed: report.removed,
            keptAwaitingApproval: report.keptAwaitingApproval,
            bytesFreed: report.bytesFreed,
          },
          `pruned sessions idle more than ${days} days`,
        );
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'pruning old sessions failed'))
      .finally(() => {
        busy = false;
      });
  };
  prune();
  const timer = setInterval(prune, ttlCheckIntervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
