import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Scope } from '../../identity/index.ts';

/** A JSON Schema written out, for what zod does not describe (streams, uploads, raw JSON-RPC). */
export type JsonSchema = Record<string, unknown>;

/** The HTTP methods routes are declared with. */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a route takes: each zod schema both checks the request and documents it. */
export interface RouteRequest {
  /** Path parameters, parsed by `input.params()`. */
  params?: z.ZodObject;
  /** The query string, parsed by `input.query()`. */
  query?: z.ZodObject;
  /** Headers the route reads (documented; the handler reads them by name). */
  headers?: z.ZodObject;
  /** The JSON body, parsed by `input.body()`. */
  body?: z.ZodType;
  /** What `input.body()` parses when the request has no body, so problems name the fields. */
  emptyBody?: unknown;
  /** Further media types of the body (documented; the handler reads them itself). */
  bodyContent?: Record<string, JsonSchema>;
}

/** One documented answer: JSON by `schema`, other media types by `content`. */
export interface RouteResponse {
  description: string;
  schema?: z.ZodType;
  content?: Record<string, z.ZodType | JsonSchema>;
}

/** The content of a Server-Sent Events answer, documented as text. */
export const eventStream: Record<string, JsonSchema> = { 'text/event-stream': { type: 'string' } };

type Parsed<Schema> = Schema extends z.ZodType ? z.output<Schema> : undefined;

/**
 * The request's declared parts, each parsed with its schema when the handler asks (a 400
 * listing every problem), so a handler decides what comes first: whose session it is (404)
 * or what was sent (400).
 */
export interface RouteInput<Request extends RouteRequest = RouteRequest> {
  params(): Parsed<Request['params']>;
  query(): Parsed<Request['query']>;
  body(): Parsed<Request['body']>;
}

interface RouteBase<Request extends RouteRequest> {
  method: RouteMethod;
  /** Fastify's path: `:name` parameters, `*` for the rest of the path. */
  path: string;
  request?: Request;
  /** A body limit of its own (bytes), above the server's. */
  bodyLimit?: number;
  /**
   * The level of its request lines ("incoming request", "request completed"), when not
   * `info`: the console's own files log at `debug`, so a page load adds no `info` line.
   */
  logLevel?: 'debug';
  /** Answers the request: a value to send as JSON, or the reply it sent. */
  handler(
    request: FastifyRequest,
    reply: FastifyReply,
    input: RouteInput<Request>,
  ): unknown | Promise<unknown>;
}

/** A route in /openapi.json. */
export interface DocumentedRoute<Request extends RouteRequest = RouteRequest>
  extends RouteBase<Request> {
  hidden?: false;
  operationId: string;
  summary: string;
  /** Answers that succeed, by status. */
  responses: Record<number, RouteResponse>;
  /** Statuses of the error answers, in the group's error body. */
  errors?: number[];
  /**
   * The OpenAPI path and its parameters when Fastify's path cannot say them: a `*` that
   * holds several parts, which the handler splits itself.
   */
  documentedPath?: { path: string; params: z.ZodObject };
}

/** A route kept out of /openapi.json on purpose, not being an API operation (the console's files, say). */
export interface HiddenRoute<Request extends RouteRequest = RouteRequest>
  extends RouteBase<Request> {
  hidden: true;
}

/**
 * Who may call a route, declared by every route: anyone (`public: true`: health, metrics,
 * the console's and the docs' files), or callers whose credentials hold `scope` — `null`
 * for any accepted credentials. Reading the caller's things needs `yeoul:read`; running or
 * changing them `yeoul:write`; changing the shared knowledge base `yeoul:documents`.
 */
export type RouteAccess = { public: true; scope?: never } | { public?: never; scope: Scope | null };

/** One HTTP route, declared once: Fastify's registration and /openapi.json both come from it. */
export type Route<Request extends RouteRequest = RouteRequest> = (
  | DocumentedRoute<Request>
  | HiddenRoute<Request>
) &
  RouteAccess;

/** The routes of one area, with what they share. */
export interface RouteGroup {
  /** The tag of the group's operations in /openapi.json. */
  tag?: { name: string; description: string };
  /** A path prefix with a Fastify scope of its own (its error and not-found handlers). */
  prefix?: string;
  /** The body of the group's error answers (default: `{error: {code, message}}`). */
  errorBody?: z.ZodType;
  /** Prepares the scope the routes are registered in: handlers, hooks. */
  setup?(scope: FastifyInstance): void;
  routes: Route[];
}

/**
 * Declares a route: its types come from its schemas, at no cost at run time.
 * @example
 * defineRoute({
 *   method: 'GET', path: '/api/sessions/:id', operationId: 'getSession', summary: 'A session',
 *   scope: 'yeoul:read',
 *   request: { params: sessionParams }, responses: { 200: { description: 'the session', schema: sessionSchema } },
 *   handler: async (request, _reply, input) => load(input.params().id),
 * });
 */
export function defineRoute<const Request extends RouteRequest = Record<never, never>>(
  route: Route<Request>,
): Route {
  return route;
}
