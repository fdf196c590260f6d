import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Identity, Scope } from '../../identity/index.ts';
import type { Route, RouteGroup, RouteInput, RouteRequest } from './define-route.ts';
import { insufficientScope } from './insufficient-scope.ts';
import { openApiDocument, openApiPathOf } from './openapi-document.ts';
import { parseWith } from './schemas.ts';

/** What a route's Fastify `config` says of its place in /openapi.json and of who may call it. */
export interface RouteDocumentation {
  /** Its OpenAPI path, or `hidden` when it is kept out on purpose. */
  openapi: { path: string } | 'hidden';
  /** The level of its request lines when not `info` (see `Route.logLevel`). */
  logLevel?: 'debug';
  /** Open to anyone, or the scope it needs (`null`: any accepted credentials). */
  access: 'public' | Scope | null;
}

/** How routes learn who is calling, to hold each to the scope it declares. */
export interface RouteGuard {
  /** The request's caller, worked out before the route is reached. */
  identityOf(request: FastifyRequest): Identity;
  /** Told of each request refused for lack of a scope. */
  onRefused?(scope: Scope): void;
}

/**
 * Registers every group's routes on the server, each parsing its input with its own
 * schemas, and GET /openapi.json, the document generated from the same declarations.
 * With a guard, a route that declares a scope refuses, before its body is read, a caller
 * whose credentials lack it: 403 `insufficient_scope`, nothing done.
 */
export function registerRoutes(
  app: FastifyInstance,
  groups: RouteGroup[],
  info: { version: string; guard?: RouteGuard },
): void {
  const add = (scope: FastifyInstance, route: Route, prefix: string) =>
    addRoute(scope, route, prefix, info.guard);
  for (const group of groups) {
    if (group.prefix === undefined) {
      group.setup?.(app);
      for (const route of group.routes) add(app, route, '');
      continue;
    }
    const prefix = group.prefix;
    void app.register(
      async (scope) => {
        group.setup?.(scope);
        for (const route of group.routes) add(scope, route, prefix);
      },
      { prefix },
    );
  }
  const document = openApiDocument(groups, info.version);
  add(
    app,
    {
      method: 'GET',
      path: '/openapi.json',
      hidden: true,
      public: true,
      handler: async () => document,
    },
    '',
  );
}

function addRoute(
  scope: FastifyInstance,
  route: Route,
  prefix: string,
  guard: RouteGuard | undefined,
): void {
  const needed = route.public ? undefined : route.scope;
  const config: RouteDocumentation = {
    openapi: route.hidden ? 'hidden' : { path: openApiPathOf(route, prefix) },
    ...(route.logLevel === undefined ? {} : { logLevel: route.logLevel }),
    access: route.public ? 'public' : route.scope,
  };
  const declared = route.request ?? {};
  scope.route({
    method: route.method,
    url: route.path,
    ...(route.bodyLimit === undefined ? {} : { bodyLimit: route.bodyLimit }),
    // Fastify's own config type knows only its plugins' keys; ours are read back by name.
    config: config as FastifyContextConfig & RouteDocumentation,
    ...(guard && needed
      ? {
          onRequest: async (request: FastifyRequest, reply: FastifyReply) =>
            requireScope(guard, needed, request, reply),
        }
      : {}),
    handler: (request, reply) =>
      route.handler(request, reply, new DeclaredInput(declared, request) as RouteInput),
  });
}

/** 403 `insufficient_scope`, saying which scope, unless the caller holds it. */
function requireScope(
  guard: RouteGuard,
  needed: Scope,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const held = guard.identityOf(request).scopes;
  if (held.has(needed)) return;
  guard.onRefused?.(needed);
  const action = `${request.method} ${request.routeOptions.url ?? request.url}`;
  throw insufficientScope(reply, needed, held, action);
}

/** A request's declared parts, parsed on demand. */
class DeclaredInput {
  #declared: RouteRequest;
  #request: FastifyRequest;

  constructor(declared: RouteRequest, request: FastifyRequest) {
    this.#declared = declared;
    this.#request = request;
  }

  params(): unknown {
    const schema = this.#declared.params;
    return schema ? parseWith(schema, this.#request.params) : undefined;
  }

  query(): unknown {
    const schema = this.#declared.query;
    return schema ? parseWith(schema, this.#request.query) : undefined;
  }

  body(): unknown {
    const { body: schema, emptyBody } = this.#declared;
    if (schema === undefined) return undefined;
    const body = this.#request.body;
    return parseWith(schema, emptyBody === undefined ? body : (body ?? emptyBody));
  }
}
