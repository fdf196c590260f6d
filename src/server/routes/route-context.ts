import type { FastifyRequest } from 'fastify';
import type { Runtime } from '../create-runtime.ts';
import type { Metrics } from '../metrics.ts';
import type { SessionGuard } from '../session-guard.ts';

/** What every route module gets. */
export interface RouteContext {
  runtime: Runtime;
  sessions: SessionGuard;
  metrics: Metrics;
  startedAt: number;
  version: string;
  /** The owner tag of the request's API key (`anonymous` without keys). */
  ownerOf(request: FastifyRequest): string;
}
