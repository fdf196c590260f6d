import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { GraphEntry } from '../../agents/index.ts';
import { END, START, type StateSchema } from '../../graph/index.ts';
import { defineRoute, type Route } from '../http/define-route.ts';
import { HttpError } from '../http/http-error.ts';
import { parseLangGraph, refuseUnsupported } from '../langgraph/langgraph-fields.ts';
import { assistantOf } from '../langgraph/langgraph-views.ts';
import type { RouteContext } from './route-context.ts';

const json = z.record(z.string(), z.unknown());
const assistantParams = z.object({ assistant_id: z.string().min(1).max(64) });
const searchBody = z.object({
  graph_id: z.string().optional(),
  name: z.string().optional(),
  metadata: z.object({ created_by: z.string().optional() }).optional(),
  limit: z.number().int().min(1).max(1000).optional(),
  offset: z.number().int().min(0).optional(),
  sort_by: z.enum(['assistant_id', 'graph_id', 'name', 'created_at', 'updated_at']).optional(),
  sort_order: z.enum(['asc', 'desc']).optional(),
  select: z.array(z.string()).optional(),
});
const searchFields = {
  graph_id: true,
  name: true,
  metadata: { created_by: true },
  limit: true,
  offset: true,
  sort_by: true,
  sort_order: true,
  select: true,
} as const;

/** A state's channels as a JSON Schema (a `messages` channel is an array of messages). */
function stateSchemaOf(schema: StateSchema): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(schema).map(([name, channel]) => [
        name,
        channel.kind === 'messages' ? { type: 'array', items: { type: 'object' } } : {},
      ]),
    ),
  };
}

/** The graph a session of this assistant runs on its thread (its nodes name the steps). */
function threadGraphOf(entry: GraphEntry) {
  return entry.handoff.thread;
}

/**
 * LangGraph's assistants: one per graph (built-in agents and the config file's graphs),
 * searched, counted, read, drawn (`/graph`) and described (`/schemas`, `/subgraphs`). They
 * are not created, changed or deleted here.
 */
export function langGraphAssistantRoutes(context: RouteContext): Route[] {
  const { runtime } = context;

  const required = (request: FastifyRequest): GraphEntry => {
    const { assistant_id: id } = request.params as { assistant_id: string };
    const entry = runtime.graphs.get(id);
    if (entry === undefined) {
      throw new HttpError({ status: 404, code: 'not_found', message: `no assistant "${id}"` });
    }
    return entry;
  };

  const search = (request: FastifyRequest) => {
    refuseUnsupported(request.body, searchFields);
    const body = parseLangGraph(searchBody, request.body);
    // Every assistant is made by the system: another `created_by` finds none.
    const bySystem =
      body.metadata?.created_by === undefined || body.metadata.created_by === 'system';
    const found = runtime.graphs.entries
      .filter((entry) => bySystem && (body.graph_id === undefined || entry.name === body.graph_id))
      .filter((entry) => body.name === undefined || entry.name.includes(body.name))
      .map(assistantOf);
    const key = body.sort_by;
    if (key !== undefined) {
      const order = body.sort_order === 'desc' ? -1 : 1;
      found.sort((a, b) => order * String(a[key]).localeCompare(String(b[key])));
    }
    return { body, found };
  };

  const searchAssistants = defineRoute({
    method: 'POST',
    path: '/assistants/search',
    scope: 'yeoul:read',
    operationId: 'langGraphSearchAssistants',
    summary: 'LangGraph: the assistants (one per graph)',
    request: { body: searchBody },
    responses: { 200: { description: 'the assistants', schema: z.array(json) } },
    errors: [401, 422],
    handler: (request) => {
      const { body, found } = search(request);
      const offset = body.offset ?? 0;
      const page = found.slice(offset, offset + (body.limit ?? 10));
      const { select } = body;
      if (select === undefined) return page;
      return page.map((assistant) =>
        Object.fromEntries(Object.entries(assistant).filter(([key]) => select.includes(key))),
      );
    },
  });

  const countAssistants = defineRoute({
    method: 'POST',
    path: '/assistants/count',
    scope: 'yeoul:read',
    operationId: 'langGraphCountAssistants',
    summary: 'LangGraph: how many assistants a search finds',
    request: { body: searchBody },
    responses: { 200: { description: 'the count', schema: z.number() } },
    errors: [401, 422],
    handler: (request) => search(request).found.length,
  });

  const getAssistant = defineRoute({
    method: 'GET',
    path: '/assistants/:assistant_id',
    scope: 'yeoul:read',
    operationId: 'langGraphGetAssistant',
    summary: 'LangGraph: one assistant',
    request: { params: assistantParams },
    responses: { 200: { description: 'the assistant', schema: json } },
    errors: [401, 404],
    handler: (request) => assistantOf(required(request)),
  });

  const getGraph = defineRoute({
    method: 'GET',
    path: '/assistants/:assistant_id/graph',
    scope: 'yeoul:read',
    operationId: 'langGraphAssistantGraph',
    summary: 'LangGraph: the assistant’s graph: its nodes and edges',
    request: { params: assistantParams },
    responses: { 200: { description: 'the graph', schema: json } },
    errors: [401, 404],
    handler: (request) => {
      const graph = threadGraphOf(required(request));
      const nodes = [START, ...graph.nodes.keys(), END].map((id) => ({
        id,
        type: id === START || id === END ? 'schema' : 'runnable',
        data: id,
      }));
      const edges = [...graph.edges.entries()].flatMap(([source, list]) =>
        list.flatMap((edge) =>
          edge.kind === 'plain'
            ? [{ source, target: edge.to, conditional: false }]
            : edge.destinations.map((target) => ({ source, target, conditional: true })),
        ),
      );
      const joined = graph.joins.flatMap((join) =>
        join.sources.map((source) => ({ source, target: join.to, conditional: false })),
      );
      return { nodes, edges: [...edges, ...joined] };
    },
  });

  const getSchemas = defineRoute({
    method: 'GET',
    path: '/assistants/:assistant_id/schemas',
    scope: 'yeoul:read',
    operationId: 'langGraphAssistantSchemas',
    summary: 'LangGraph: the assistant’s input, output, state, config and context schemas',
    request: { params: assistantParams },
    responses: { 200: { description: 'the schemas', schema: json } },
    errors: [401, 404],
    handler: (request) => {
      const entry = required(request);
      const state = stateSchemaOf(threadGraphOf(entry).schema);
      const options = {
        type: 'object',
        properties: {
          temperature: { type: 'number', minimum: 0, maximum: 2 },
          maxIterations: { type: 'integer', minimum: 1, maximum: 20 },
          longTermMemory: { type: 'boolean' },
          evaluate: { type: 'boolean' },
        },
      };
      return {
        graph_id: entry.name,
        input_schema: state,
        output_schema: state,
        state_schema: state,
        config_schema: { type: 'object', properties: { configurable: options } },
        context_schema: options,
      };
    },
  });

  const getSubgraphs = defineRoute({
    method: 'GET',
    path: '/assistants/:assistant_id/subgraphs',
    scope: 'yeoul:read',
    operationId: 'langGraphAssistantSubgraphs',
    summary: 'LangGraph: the schemas of the assistant’s subgraphs, by namespace',
    request: { params: assistantParams },
    responses: { 200: { description: 'the subgraphs', schema: json } },
    errors: [401, 404],
    handler: (request) => {
      const graph = threadGraphOf(required(request));
      return Object.fromEntries(
        [...graph.subgraphs.entries()].map(([name, child]) => {
          const schema = (child as { graph?: { schema?: StateSchema } }).graph?.schema;
          const state = schema === undefined ? { type: 'object' } : stateSchemaOf(schema);
          return [
            name,
            { graph_id: name, input_schema: state, output_schema: state, state_schema: state },
          ];
        }),
      );
    },
  });

  return [searchAssistants, countAssistants, getAssistant, getGraph, getSchemas, getSubgraphs];
}
