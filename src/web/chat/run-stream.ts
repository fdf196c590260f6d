import { parseSse } from '../../client/index.ts';
import { apiFetch } from '../api/api-client.ts';
import type { GraphName } from '../api/types.ts';

/** The run options the composer offers. */
export interface RunOptions {
  graph: GraphName;
  evaluate: boolean;
  /** Empty: the server's default. */
  temperature: number | null;
}

/** How a stream ended: with `done`, with an `error` event, or cut off before either. */
export interface StreamOutcome {
  done: boolean;
  failed: boolean;
}

/** Starts a run: POST /api/agent/stream with a message, or with decisions that resume a paused run. */
export function postRunStream(
  body:
    | { message: string; sessionId: string; options: RunOptions }
    | {
        sessionId: string;
        resume: { decisions: Array<{ id: string; approve: boolean; reason?: string }> };
      },
  signal: AbortSignal,
): Promise<Response> {
  const payload =
    'message' in body
      ? {
          message: body.message,
          sessionId: body.sessionId,
          options: {
            graph: body.options.graph,
            ...(body.options.evaluate ? { evaluate: true } : {}),
            ...(body.options.temperature === null ? {} : { temperature: body.options.temperature }),
          },
        }
      : body;
  return apiFetch('/api/agent/stream', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(payload),
    signal,
  });
}

/** Joins a session's running run: GET /api/sessions/:id/stream, replaying after `lastEventId`. */
export function joinRunStream(
  sessionId: string,
  lastEventId: string | undefined,
  signal: AbortSignal,
): Promise<Response> {
  return apiFetch(`/api/sessions/${encodeURIComponent(sessionId)}/stream`, {
    headers: {
      accept: 'text/event-stream',
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
    signal,
  });
}

/** Reads a run's events, handing each (JSON data parsed) to `onEvent`, until the stream ends. */
export async function readRunEvents(
  response: Response,
  onEvent: (event: string, data: unknown, id: string | undefined) => void,
): Promise<StreamOutcome> {
  const outcome: StreamOutcome = { done: false, failed: false };
  if (!response.body) return outcome;
  try {
    for await (const event of parseSse(response.body)) {
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch {
        data = event.data;
      }
      onEvent(event.event, data, event.id);
      if (event.event === 'done') outcome.done = true;
      if (event.event === 'error') outcome.failed = true;
    }
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    // The connection broke: the caller decides whether to rejoin.
  }
  return outcome;
}
