import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Runtime } from '../create-runtime.ts';
import type { Metrics } from '../metrics.ts';
import type { RunStreams } from '../run-streams.ts';
import type { SessionGuard } from '../session-guard.ts';

/** What every route module gets. */
export interface RouteContext {
  runtime: Runtime;
  /** The per-session bound on waiting requests (409 beyond it). */
  guard: SessionGuard;
  metrics: Metrics;
  /** The event streams of runs, for clients that join or rejoin them. */
  streams: RunStreams;
  logger: FastifyBaseLogger;
  startedAt: number;
  version: string;
  /** The owner tag of the request's API key (`anonymous` without keys). */
  ownerOf(request: FastifyRequest): string;
}
