import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Route, RouteGroup, RouteInput, RouteRequest } from './define-route.ts';
import { openApiDocument, openApiPathOf } from './openapi-document.ts';
import { parseWith } from './schemas.ts';

/** What a route's Fastify `config` says of its place in /openapi.json. */
export interface RouteDocumentation {
  /** Its OpenAPI path, or `hidden` when it is kept out on purpose. */
  openapi: { path: string } | 'hidden';
  /** The level of its request lines when not `info` (see `Route.logLevel`). */
  logLevel?: 'debug';
}

/**
 * Registers every group's routes on the server, each parsing its input with its own
 * schemas, and GET /openapi.json, the document generated from the same declarations.
 */
export function registerRoutes(
  app: FastifyInstance,
  groups: RouteGroup[],
  info: { version: string },
): void {
  for (const group of groups) {
    if (group.prefix === undefined) {
      group.setup?.(app);
      for (const route of group.routes) addRoute(app, route, '');
      continue;
    }
    const prefix = group.prefix;
    void app.register(
      async (scope) => {
        group.setup?.(scope);
        for (const route of group.routes) addRoute(scope, route, prefix);
      },
      { prefix },
    );
  }
  const document = openApiDocument(groups, info.version);
  addRoute(
    app,
    { method: 'GET', path: '/openapi.json', hidden: true, handler: async () => document },
    '',
  );
}

function addRoute(scope: FastifyInstance, route: Route, prefix: string): void {
  const config: RouteDocumentation = {
    openapi: route.hidden ? 'hidden' : { path: openApiPathOf(route, prefix) },
    ...(route.logLevel === undefined ? {} : { logLevel: route.logLevel }),
  };
  const declared = route.request ?? {};
  scope.route({
    method: route.method,
    url: route.path,
    ...(route.bodyLimit === undefined ? {} : { bodyLimit: route.bodyLimit }),
    config,
    handler: (request, reply) =>
      route.handler(request, reply, new DeclaredInput(declared, request) as RouteInput),
  });
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
