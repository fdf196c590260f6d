import { z } from 'zod';
import { parseUsageRange } from '../../identity/index.ts';
import { everyOwnersUsageSchema, usageQuery, usageReportSchema } from '../../protocol/index.ts';
import { defineRoute, type RouteGroup } from '../http/define-route.ts';
import { HttpError } from '../http/http-error.ts';
import { insufficientScope } from '../http/insufficient-scope.ts';
import type { RouteContext } from './route-context.ts';

/**
 * GET /api/usage: the caller's run requests, model calls and tokens per UTC day, with the
 * limits and what is left of the budgets; admins may name another owner, or `*` for all.
 */
export function usageRoutes(context: RouteContext): RouteGroup {
  const meter = context.runtime.usage;
  const getUsage = defineRoute({
    method: 'GET',
    path: '/api/usage',
    operationId: 'getUsage',
    summary:
      'The caller’s usage per UTC day (default the 30 days up to today), with the limits and what is left; owner=OWNER or owner=* for admins',
    request: { query: usageQuery },
    responses: {
      200: {
        description: 'one owner’s usage, or (owner=*) every owner’s',
        schema: z.union([usageReportSchema, everyOwnersUsageSchema]),
      },
    },
    errors: [400, 401, 403],
    scope: 'yeoul:read',
    handler: async (request, reply, input) => {
      const query = input.query();
      const caller = context.ownerOf(request);
      const owner = query.owner ?? caller;
      if (owner !== caller && !context.identityOf(request).admin) {
        const { scopes } = context.identityOf(request);
        throw insufficientScope(reply, 'yeoul:admin', scopes, 'owner: another owner’s usage');
      }
      const range = parseUsageRange(query, meter.now());
      if (!range.ok) {
        throw new HttpError({
          status: 400,
          code: 'invalid_request',
          message: range.message,
          details: { param: range.param },
        });
      }
      return owner === '*' ? meter.everyOwner(range) : meter.report(owner, range);
    },
  });

  return {
    tag: { name: 'usage', description: 'Per-owner usage and limits' },
    routes: [getUsage],
  };
}
