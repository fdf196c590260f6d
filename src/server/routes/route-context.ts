import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Identity } from '../../identity/index.ts';
import type { Schedule } from '../../schedules/index.ts';
import type { Metrics } from '../http/metrics.ts';
import type { RunLedger } from '../runs/run-ledger.ts';
import type { RunSlots } from '../runs/run-slots.ts';
import type { CancelReason } from '../runs/run-store.ts';
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
  /** The runs' records, the runs going in this process, and who hears of their ends. */
  runs: RunLedger;
  /** The places for background runs going at once in this instance. */
  backgroundSlots: RunSlots;
  /** This instance's schedule runner: follows a schedule changed here at once, or forgets one. */
  schedules: { track(schedule: Schedule): void; forget(scheduleId: string): void };
  /**
   * Asks another instance that runs the session's run to stop it (`reason`: why, as its
   * record will say; a newer message's supersedes every run of the session there); true when
   * one was told.
   */
  cancelElsewhere(sessionId: string, reason?: CancelReason): Promise<boolean>;
  /** Closes the session's run left marked running by a live instance no longer in its line. */
  closeLeftBehind(sessionId: string): Promise<boolean>;
  logger: FastifyBaseLogger;
  startedAt: number;
  version: string;
  /** Who is calling: the owner, how it was proved, its scopes (anonymous without authentication). */
  identityOf(request: FastifyRequest): Identity;
  /** The caller's owner: a key's tag, `jwt:<claim>`, `hook:<owner>`, or `anonymous`. */
  ownerOf(request: FastifyRequest): string;
}
