import type { FastifyReply } from 'fastify';
import { sseHeaders, sseWriter } from '../http/sse.ts';
import { type StreamChoice, type StreamMode, streamModes } from './langgraph-run-body.ts';
import type { LangGraphEvent } from './langgraph-step-events.ts';

/** A LangGraph event stream to one client: events numbered `RUNID:N`, those up to `after` not sent. */
export interface LangGraphSink {
  send(event: LangGraphEvent): void;
  close(): void;
  /** Whether the client has gone. */
  closed(): boolean;
}

/** The stream mode an event belongs to; undefined for those every stream gets (`metadata`, `error`). */
function modeOf(event: string): StreamMode | undefined {
  const mode = event.split('|', 1)[0] as string;
  if (mode === 'messages') return 'messages-tuple';
  return (streamModes as readonly string[]).includes(mode) ? (mode as StreamMode) : undefined;
}

/**
 * Opens the SSE answer of a LangGraph run (with `Content-Location` naming the run and
 * `Location` its stream on its thread, and the headers set so far: CORS, request id) and numbers its events
 * from 1, counting every mode's and every subgraph's; it sends those of `modes` (and of
 * subgraphs when asked) after `after` (a rejoin's Last-Event-ID).
 */
export function openLangGraphStream(
  reply: FastifyReply,
  target: StreamChoice & { runPath: string; threadId: string; runId: string },
  after = 0,
): LangGraphSink {
  const { runPath, threadId, runId, modes, subgraphs } = target;
  reply.hijack();
  reply.raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    ...sseHeaders,
    'x-request-id': String(reply.request.id),
    'content-location': runPath,
    location: `/threads/${threadId}/runs/${runId}/stream`,
  });
  const writer = sseWriter(reply.raw);
  let n = 0;
  return {
    send(event) {
      n += 1;
      const mode = modeOf(event.event);
      if (n <= after || (mode !== undefined && !modes.has(mode))) return;
      if (!subgraphs && event.event.includes('|')) return;
      writer.write({ id: `${runId}:${n}`, event: event.event, data: event.data });
    },
    close: () => writer.close(),
    closed: () => reply.raw.destroyed || reply.raw.writableEnded,
  };
}

/** The event number of a Last-Event-ID of run `runId` (`RUNID:N`); 0 for none or another run's. */
export function lastEventNumber(lastEventId: unknown, runId: string): number {
  if (typeof lastEventId !== 'string' || !lastEventId.startsWith(`${runId}:`)) return 0;
  return Number(lastEventId.slice(runId.length + 1)) || 0;
}
