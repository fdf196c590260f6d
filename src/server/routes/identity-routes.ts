import { scopes } from '../../identity/index.ts';
import { meResponseSchema } from '../../protocol/index.ts';
import { defineRoute, type RouteGroup } from '../http/define-route.ts';
import type { RouteContext } from './route-context.ts';

/** GET /api/me: who is calling, as the server worked it out (any accepted credentials). */
export function identityRoutes(context: RouteContext): RouteGroup {
  const me = defineRoute({
    method: 'GET',
    path: '/api/me',
    scope: null,
    operationId: 'getMe',
    summary: 'Who the server takes the caller for: owner, how it signed in, scopes, expiry',
    responses: { 200: { description: 'the caller', schema: meResponseSchema } },
    handler: async (request) => {
      const identity = context.identityOf(request);
      return {
        owner: identity.owner,
        via: identity.via,
        scopes: scopes.filter((scope) => identity.scopes.has(scope)),
        admin: identity.admin,
        expiresAt: identity.expiresAt?.toISOString() ?? null,
      };
    },
  });
  return {
    tag: { name: 'identity', description: 'Who is calling' },
    routes: [me],
  };
}
