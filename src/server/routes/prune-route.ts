import { isOwnerName } from '../../identity/index.ts';
import { pruneBody, pruneResponseSchema } from '../../protocol/index.ts';
import { defineRoute, type Route } from '../http/define-route.ts';
import { HttpError } from '../http/http-error.ts';
import { insufficientScope } from '../http/insufficient-scope.ts';
import { parseRetentionDuration, pruneSessions } from '../sessions/prune-sessions.ts';
import type { RouteContext } from './route-context.ts';

/** What `owner` names to mean every owner. */
const everyOwner = '*';

/**
 * POST /api/sessions/prune: retention on demand. The caller's own sessions idle longer
 * than `olderThan` go; with `yeoul:admin`, another owner's (`owner`) or every owner's (`*`).
 * A session waiting for an approval decision is kept, and counted.
 */
export function pruneSessionsRoute(context: RouteContext): Route {
  return defineRoute({
    method: 'POST',
    path: '/api/sessions/prune',
    scope: 'yeoul:write',
    operationId: 'pruneSessions',
    summary:
      'Remove sessions idle longer than olderThan: the caller’s own, or (yeoul:admin) another owner’s or every owner’s (*)',
    request: { body: pruneBody },
    responses: {
      200: { description: 'what was (or would be) removed', schema: pruneResponseSchema },
    },
    errors: [400, 401, 403],
    handler: async (request, reply, input) => {
      const body = input.body();
      const caller = context.identityOf(request);
      const named = body.owner ?? caller.owner;
      if (named !== everyOwner && !isOwnerName(named)) {
        throw new HttpError({
          status: 400,
          code: 'invalid_request',
          // Not echoed: whatever was sent there stays out of the answer.
          message:
            'owner: an owner as GET /api/me names it (anonymous, a key’s tag, jwt:…, hook:…) or *',
          details: { param: 'owner' },
        });
      }
      if (named !== caller.owner && !caller.scopes.has('yeoul:admin')) {
        context.metrics.authFailures.inc({ code: 'insufficient_scope' });
        throw insufficientScope(
          reply,
          'yeoul:admin',
          caller.scopes,
          named === everyOwner
            ? 'pruning every owner’s sessions'
            : 'pruning another owner’s sessions',
        );
      }
      const report = await pruneSessions(context.runtime, {
        olderThanMs: parseRetentionDuration(body.olderThan) ?? 0,
        dryRun: body.dryRun === true,
        ...(named === everyOwner ? {} : { owner: named }),
      });
      return {
        removed: report.removed,
        keptAwaitingApproval: report.keptAwaitingApproval,
        dryRun: report.dryRun,
      };
    },
  });
}
