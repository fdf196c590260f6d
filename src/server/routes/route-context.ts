import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Metrics } from '../http/metrics.ts';
import type { RunStreamHub } from '../runs/run-streams.ts';
import type { Runtime } from '../runtime/create-runtime.ts';
import type { SessionQueue } from '../sessions/session-queue.ts';

/** What every route module gets. */
export interface RouteContext {
  runtime: Runtime;
  /** Where a session's requests wait for their turn, with the bound on waiting requests (409 beyond it). */
  queue: SessionQueue;
  metrics: Metrics;
  /** The event streams of runs, for clients that join or rejoin them (from any instance). */
  streams: RunStreamHub;
  /** Asks another instance that runs the session's run to stop it; true when one was told. */
  cancelElsewhere(sessionId: string): Promise<boolean>;
  logger: FastifyBaseLogger;
  startedAt: number;
  version: string;
  /** The owner tag of the request's API key (`anonymous` without keys). */
  ownerOf(request: FastifyRequest): string;
  /** Whether the caller is an admin: may read every owner's usage, is never held to the limits. */
  isAdminRequest(request: FastifyRequest): boolean;
}
