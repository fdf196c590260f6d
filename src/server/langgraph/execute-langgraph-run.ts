import type { AgentResponse } from '../../agents/index.ts';
import { errorResponse } from '../http/http-error.ts';
import type { RouteContext } from '../routes/route-context.ts';
import { type GraphRunAnswer, graphStreamEventOf, runGraphCall } from '../runs/run-graph-call.ts';
import { runAgentCall } from '../runs/run-request.ts';
import type { StreamEvent } from '../runs/run-streams.ts';
import { runMetadataOf, storedChoiceOf } from './langgraph-run-body.ts';
import type { PreparedRun } from './prepare-langgraph-run.ts';

/** How a run ended, as wait, join and the stream read it. */
export type RunEnding = Pick<AgentResponse, 'status' | 'error' | 'errorCode' | 'response'>;

/** How a prepared run goes: who sees its events, what stops it, when it arrived. */
export interface ExecuteOptions {
  arrivedAt: number;
  signal?: AbortSignal;
  /** Every event of the run, numbered as joiners of the run see it. */
  onEvent?: (entry: StreamEvent) => void;
}

/**
 * Runs a prepared LangGraph run to its end: an agent's turn through the `/api` path, or a
 * graph of the config file through `/api/graphs`' — its events numbered and kept for joiners
 * alike, and the graph run tracked so that a cancel or a newer message stops it.
 */
export async function executeLangGraphRun(
  context: RouteContext,
  run: PreparedRun,
  options: ExecuteOptions,
): Promise<RunEnding> {
  const chosen = storedChoiceOf(run.stream);
  if (run.kind === 'agent') {
    const metadata = runMetadataOf(run.body);
    return runAgentCall(context, run.call, {
      streamTokens: options.onEvent !== undefined,
      source: 'langgraph',
      admission: run.admission,
      arrivedAt: options.arrivedAt,
      runId: run.runId,
      stream: chosen,
      ...(metadata === undefined ? {} : { metadata }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    });
  }
  const { graphCall } = run;
  const firstN = graphCall.answers === undefined ? 1 : Math.floor(Date.now() / 1000);
  const stream = context.streams.open(run.threadId, run.runId, firstN);
  const controller = new AbortController();
  const stop = () => controller.abort(options.signal?.reason ?? new Error('cancelled'));
  if (options.signal?.aborted) stop();
  options.signal?.addEventListener('abort', stop, { once: true });
  const untrack = context.runs.track(run.runId, {
    sessionId: run.threadId,
    stream,
    cancel: stop,
  });
  const push = (event: string, data: unknown) => options.onEvent?.(stream.push(event, data));
  try {
    const answer: GraphRunAnswer = await runGraphCall(
      context,
      { ...graphCall, arrivedAt: options.arrivedAt, stream: chosen },
      {
        signal: controller.signal,
        onEvent: (event) => {
          const forwarded = graphStreamEventOf(event);
          if (forwarded) push(forwarded.event, forwarded.data);
        },
      },
    );
    push('done', answer);
    return { status: answer.status === 'interrupted' ? 'interrupted' : 'published', response: '' };
  } catch (error) {
    if (stream.events.length > 0) push('error', errorResponse(error).body.error);
    throw error;
  } finally {
    untrack();
    options.signal?.removeEventListener('abort', stop);
    context.streams.finish(stream);
  }
}
