import { z } from 'zod';
import { errorResponseSchema } from '../../protocol/index.ts';
import type {
  DocumentedRoute,
  JsonSchema,
  Route,
  RouteAccess,
  RouteGroup,
  RouteRequest,
  RouteResponse,
} from './define-route.ts';

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;

/** The OpenAPI path of a route: Fastify's `:name` as `{name}`, under its group's prefix. */
export function openApiPathOf(route: Route, prefix = ''): string {
  if (!route.hidden && route.documentedPath !== undefined) return route.documentedPath.path;
  return `${prefix}${route.path}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/**
 * The OpenAPI 3.1 document of the declared routes: parameters, request bodies and answers
 * generated from the zod schemas that check and describe them, one operation id each —
 * enough for generated clients. Hidden routes stay out.
 */
export function openApiDocument(groups: RouteGroup[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set<string>();
  for (const group of groups) {
    const errorBody = jsonSchema(group.errorBody ?? errorResponseSchema, 'output');
    for (const route of group.routes) {
      if (route.hidden) continue;
      if (operationIds.has(route.operationId)) {
        throw new Error(`the operation id "${route.operationId}" is declared twice`);
      }
      operationIds.add(route.operationId);
      const path = openApiPathOf(route, group.prefix);
      paths[path] ??= {};
      paths[path][route.method.toLowerCase()] = operationOf(route, group, errorBody);
    }
  }
  const tags = groups.flatMap((group) => (group.tag ? [group.tag] : []));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Yeoul',
      version,
      description:
        'Graph-based AI agent server: agent runs, sessions, approvals, documents; an OpenAI-compatible API under /v1 and an MCP server at /mcp.',
    },
    tags,
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths,
  };
}

function operationOf(
  route: DocumentedRoute & RouteAccess,
  group: RouteGroup,
  errorBody: JsonSchema,
) {
  const request = route.request ?? {};
  const parameters = [
    ...parametersIn('path', route.documentedPath?.params ?? request.params),
    ...parametersIn('query', request.query),
    ...parametersIn('header', request.headers),
  ];
  const requestContent = {
    ...(request.body ? { 'application/json': { schema: jsonSchema(request.body, 'input') } } : {}),
    ...mediaTypes(request.bodyContent ?? {}),
  };
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    responses[status] = responseOf(response);
  }
  // Every route behind credentials may answer 401; one that needs a scope, 403.
  const errors = new Set([
    ...(route.errors ?? []),
    ...(route.public ? [] : [401]),
    ...(route.public || route.scope === null ? [] : [403]),
  ]);
  for (const status of [...errors].sort()) {
    responses[String(status)] = {
      description: 'error',
      content: { 'application/json': { schema: errorBody } },
    };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(group.tag ? { tags: [group.tag.name] } : {}),
    ...(route.public ? { security: [] } : {}),
    ...(route.public || route.scope === null ? {} : { security: [{ bearer: [route.scope] }] }),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(Object.keys(requestContent).length > 0
      ? { requestBody: { required: true, content: requestContent } }
      : {}),
    responses,
  };
}

/** One OpenAPI parameter per property of the schema; its description is the parameter's. */
function parametersIn(location: 'path' | 'query' | 'header', schema: z.ZodObject | undefined) {
  if (schema === undefined) return [];
  const object = jsonSchema(schema, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(object.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: location,
      required: location === 'path' || (object.required ?? []).includes(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

function responseOf(response: RouteResponse) {
  const content = {
    ...(response.schema
      ? { 'application/json': { schema: jsonSchema(response.schema, 'output') } }
      : {}),
    ...mediaTypes(response.content ?? {}),
  };
  return {
    description: response.description,
    ...(Object.keys(content).length > 0 ? { content } : {}),
  };
}

/** Media types with their schemas: zod ones generated (as answers), written ones as they are. */
function mediaTypes(
  content: NonNullable<RouteRequest['bodyContent'] | RouteResponse['content']>,
): Record<string, { schema: JsonSchema }> {
  return Object.fromEntries(
    Object.entries(content).map(([type, schema]) => [
      type,
      { schema: schema instanceof z.ZodType ? jsonSchema(schema, 'output') : schema },
    ]),
  );
}
