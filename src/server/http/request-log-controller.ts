import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { RouteDocumentation } from './register-routes.ts';

const quietLevel = (request: FastifyRequest): 'debug' | undefined =>
  (request.routeOptions?.config as Partial<RouteDocumentation> | undefined)?.logLevel;

/**
 * Fastify's request lines, at `debug` for the routes declared with `logLevel: 'debug'` (the
 * console's own files: a page load adds no `info` line) and as Fastify writes them for the rest.
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (quietLevel(request) === undefined) super.incomingRequest(request, reply);
    else if (!this.isLogDisabled(request)) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error || quietLevel(request) === undefined) super.requestCompleted(error, request, reply);
    else if (!this.isLogDisabled(request)) {
      reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }
}
