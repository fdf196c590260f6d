import type { FastifyInstance, FastifyRequest } from 'fastify';
import { anonymousIdentity, type Identity, type IdentityResolver } from '../../identity/index.ts';
import { HttpError } from './http-error.ts';
import type { Metrics } from './metrics.ts';
import type { RouteDocumentation } from './register-routes.ts';

/** Paths that need credentials even where no route answers (their 404 says nothing without). */
export const protectedPath = /^\/(?:api|v1|mcp|threads|runs|assistants|store)(?:\/|$|\?)/;

/**
 * Works out who is calling, once per request, for every route not declared public (and
 * any unknown path under /api, /v1, /mcp or LangGraph's /threads, /runs, /assistants, /store): a request the resolver refuses gets 401 with
 * `WWW-Authenticate: Bearer` (`error="invalid_token"` for a refused token) before anything
 * else happens. A failing config hook is logged at `error`, never a pass. Returns how
 * routes read the caller; without authentication every caller is the anonymous owner.
 */
export function authenticateRequests(
  app: FastifyInstance,
  resolver: IdentityResolver,
  metrics: Metrics,
): { identityOf(request: FastifyRequest): Identity } {
  const identities = new WeakMap<FastifyRequest, Identity>();
  app.addHook('onRequest', async (request, reply) => {
    if (!resolver.enabled || request.method === 'OPTIONS') return;
    const config = request.routeOptions.config as Partial<RouteDocumentation> | undefined;
    const access = config?.access;
    if (access === 'public' || (access === undefined && !protectedPath.test(request.url))) return;
    const outcome = await resolver.identify({
      method: request.method,
      url: request.url,
      headers: request.headers,
      ip: request.ip,
    });
    if (outcome.ok) {
      identities.set(request, outcome.identity);
      return;
    }
    const { refusal, hookFailure } = outcome;
    if (hookFailure) {
      request.log.error(
        { problem: hookFailure.problem },
        'auth.authenticate failed: the request is refused',
      );
    }
    metrics.authFailures.inc({ code: refusal.code });
    void reply.header(
      'www-authenticate',
      refusal.code === 'invalid_token' ? 'Bearer error="invalid_token"' : 'Bearer',
    );
    throw new HttpError({ status: 401, code: refusal.code, message: refusal.message });
  });
  return {
    identityOf(request) {
      const identity = identities.get(request);
      if (identity !== undefined) return identity;
      if (!resolver.enabled) return anonymousIdentity;
      // A route reached without an identity would be a wiring mistake: refuse, never pass.
      throw new HttpError({
        status: 401,
        code: 'unauthorized',
        message: 'a valid key or token is required',
      });
    },
  };
}
