import type { RouteGroup } from '../http/define-route.ts';
import { a2aRoutes } from './a2a-routes.ts';
import { agUiRoutes } from './ag-ui-routes.ts';
import { agentRoutes } from './agent-routes.ts';
import { documentRoutes } from './document-routes.ts';
import { evalRoutes } from './eval-routes.ts';
import { graphRoutes } from './graph-routes.ts';
import { identityRoutes } from './identity-routes.ts';
import { langGraphRoutes } from './langgraph-routes.ts';
import { mcpRoutes } from './mcp-routes.ts';
import { memoryRoutes } from './memory-routes.ts';
import type { RouteContext } from './route-context.ts';
import { runRoutes } from './run-routes.ts';
import { scheduleRoutes } from './schedule-routes.ts';
import { sessionRoutes } from './session-routes.ts';
import { systemRoutes } from './system-routes.ts';
import { usageRoutes } from './usage-routes.ts';
import { v1Routes } from './v1-routes.ts';
import { webRoutes } from './web-routes.ts';

/** Every route of the server, by area: what Fastify registers and /openapi.json shows. */
export function serverRoutes(context: RouteContext): RouteGroup[] {
  return [
    agentRoutes(context),
    sessionRoutes(context),
    runRoutes(context),
    scheduleRoutes(context),
    evalRoutes(context),
    documentRoutes(context),
    memoryRoutes(context),
    graphRoutes(context),
    usageRoutes(context),
    systemRoutes(context),
    identityRoutes(context),
    v1Routes(context),
    mcpRoutes(context),
    agUiRoutes(context),
    ...a2aRoutes(context),
    langGraphRoutes(context),
    webRoutes(),
  ];
}
