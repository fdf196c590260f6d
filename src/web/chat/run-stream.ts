import type { AgentEvent } from '../../client/index.ts';
import { api } from '../api/api-client.ts';
import type { GraphName } from '../api/types.ts';

/** The run options the composer offers. */
export interface RunOptions {
  /** Unset: the server's default graph. */
  graph?: GraphName;
  evaluate: boolean;
  /** Empty: the server's default. */
  temperature: number | null;
}

/** A run's events, as `yeoul/client` yields them (rejoined when the connection drops). */
export type RunEvents = AsyncGenerator<AgentEvent, void>;

/** Starts a run: POST /api/agent/stream with a message and the composer's options. */
export function streamMessage(
  message: string,
  sessionId: string,
  options: RunOptions,
  signal: AbortSignal,
): RunEvents {
  return api.stream(
    {
      message,
      sessionId,
      options: {
        ...(options.graph === undefined ? {} : { graph: options.graph }),
        ...(options.evaluate ? { evaluate: true } : {}),
        ...(options.temperature === null ? {} : { temperature: options.temperature }),
      },
    },
    { signal },
  );
}

/** Resumes a paused run with decisions: POST /api/agent/stream with `resume`. */
export function streamDecisions(
  sessionId: string,
  decisions: Array<{ id: string; approve: boolean; reason?: string }>,
  signal: AbortSignal,
): RunEvents {
  return api.stream({ sessionId, resume: { decisions } }, { signal });
}

/** Joins a session's running run from its start: GET /api/sessions/:id/stream. */
export function joinRun(sessionId: string, signal: AbortSignal): RunEvents {
  return api.sessions.join(sessionId, { signal });
}
