import type { FastifyRequest } from 'fastify';
import { type Admission, LimitExceededError } from '../../identity/index.ts';
import type { RouteContext } from '../routes/route-context.ts';

/**
 * Counts a run request of `owner` against the owner's limits: called once the request is
 * found acceptable (credentials, body, session), before its run starts. Over a limit it
 * throws 429 (`rate_limited` or `budget_exceeded`, with `retry-after`), counts nothing and
 * forgets `createdSession`, the session the request has just registered; admins are counted
 * but never refused. The admission is settled when the run ends (`runAgentCall`).
 */
export async function admitRun(
  context: RouteContext,
  request: FastifyRequest,
  owner: string,
  createdSession?: string,
): Promise<Admission> {
  try {
    return await admitOwner(context, owner, context.identityOf(request).admin);
  } catch (error) {
    if (createdSession !== undefined) await context.runtime.sessions.forget(createdSession);
    throw error;
  }
}

/**
 * Counts a run request of `owner` (a request's, or a schedule's firing) against the owner's
 * limits; `exempt` (an admin) is counted, never refused. Over a limit it throws the limit's
 * error (429), counted in `yeoul_limited_requests_total`, and counts nothing.
 */
export async function admitOwner(
  context: Pick<RouteContext, 'runtime' | 'metrics'>,
  owner: string,
  exempt: boolean,
): Promise<Admission> {
  try {
    return await context.runtime.usage.admit(owner, { exempt });
  } catch (error) {
    if (error instanceof LimitExceededError) {
      context.metrics.limitedRequests.inc({ limit: error.limit });
    }
    throw error;
  }
}
