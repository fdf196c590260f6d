import { z } from 'zod';
import { defineRoute, type RouteGroup } from '../http/define-route.ts';
import { langGraphAssistantRoutes } from './langgraph-assistant-routes.ts';
import { langGraphCronRoutes } from './langgraph-cron-routes.ts';
import { langGraphRunQueryRoutes } from './langgraph-run-query-routes.ts';
import { langGraphRunStartRoutes } from './langgraph-run-routes.ts';
import { langGraphStateRoutes } from './langgraph-state-routes.ts';
import { langGraphStoreRoutes } from './langgraph-store-routes.ts';
import { langGraphThreadRoutes } from './langgraph-thread-routes.ts';
import type { RouteContext } from './route-context.ts';

/**
 * LangGraph's Agent Protocol at the server's root, for `@langchain/langgraph-sdk`'s Client,
 * `useStream`, agent-chat-ui and Studio: assistants are the graphs, threads the caller's
 * sessions, runs Yeoul's runs. Fields Yeoul does not implement are refused by name (422).
 */
export function langGraphRoutes(context: RouteContext): RouteGroup {
  const ok = defineRoute({
    method: 'GET',
    path: '/ok',
    public: true,
    operationId: 'langGraphOk',
    summary: 'LangGraph: the server answers',
    responses: { 200: { description: 'ok', schema: z.object({ ok: z.literal(true) }) } },
    handler: () => ({ ok: true }),
  });

  const info = defineRoute({
    method: 'GET',
    path: '/info',
    public: true,
    operationId: 'langGraphInfo',
    summary: 'LangGraph: the server’s version and what it offers',
    responses: {
      200: {
        description: 'the version and flags',
        schema: z.object({
          version: z.string(),
          flags: z.object({ assistants: z.boolean(), crons: z.boolean(), langsmith: z.boolean() }),
        }),
      },
    },
    handler: () => ({
      version: context.version,
      flags: { assistants: true, crons: true, langsmith: false },
    }),
  });

  return {
    tag: {
      name: 'langgraph',
      description:
        'LangGraph Agent Protocol: assistants, threads and runs over graphs and sessions',
    },
    routes: [
      ok,
      info,
      ...langGraphAssistantRoutes(context),
      ...langGraphThreadRoutes(context),
      ...langGraphStateRoutes(context),
      ...langGraphRunStartRoutes(context),
      ...langGraphRunQueryRoutes(context),
      ...langGraphCronRoutes(context),
      ...langGraphStoreRoutes(context),
    ],
  };
}
