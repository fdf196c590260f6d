import type { FastifyInstance } from 'fastify';
import type { RouteContext } from './route-context.ts';

/** GET /api/graphs: the chat, react and ops graphs as Mermaid flowcharts (for the web console). */
export function registerGraphRoutes(app: FastifyInstance, context: RouteContext): void {
  const { runner } = context.runtime;
  let graphs: Array<{ name: 'chat' | 'react' | 'ops'; mermaid: string }> | undefined;

  app.get('/api/graphs', async () => {
    graphs ??= [
      { name: 'chat', mermaid: runner.chat.toMermaid() },
      { name: 'react', mermaid: runner.react.toMermaid() },
      { name: 'ops', mermaid: runner.ops.toMermaid() },
    ];
    return { graphs };
  });
}
