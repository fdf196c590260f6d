import { RunSupersededError } from '../errors/run-superseded-error.ts';
import { removeRun } from '../storage/remove-run.ts';
import type { RunWriter, WritableGraph } from '../storage/run-writer.ts';
import { endSubgraphRuns } from '../storage/subgraph-threads.ts';
import type { ChildGraph, RunEnding } from '../types.ts';

/** What ending a run needs of its graph. */
export interface EndableGraph extends WritableGraph {
  /** The nodes that are graphs: the runs of theirs that the run left open end with it. */
  subgraphs?: ReadonlyMap<string, ChildGraph>;
}

/**
 * Ends a run that did not reach END: commits its end with the graph's `closeRun` update
 * (or, for a run superseded with rollback, removes its entries: `removeRun`)
 * (`RunWriter.end`), then ends the subgraph runs it left paused or going, with
 * `subgraphReason` (by default the ending's message), so that none waits on a question no
 * one can answer now. Returns the state after the end.
 */
export async function endRun(
  graph: EndableGraph,
  writer: RunWriter,
  values: Record<string, unknown>,
  step: number,
  ending: RunEnding,
  subgraphReason = ending.error?.message ?? ending.status,
): Promise<Record<string, unknown>> {
  const { checkpointer, record } = writer;
  // A run a newer one replaces with `rollback` leaves nothing: its entries are removed.
  if (ending.cause instanceof RunSupersededError && ending.cause.rollback && record) {
    await writer.flush().catch(() => undefined);
    if (await removeRun(graph, record.threadId, writer.runId)) return values;
  }
  const after = await writer.end(graph, values, step, ending);
  if (graph.subgraphs !== undefined && graph.subgraphs.size > 0 && checkpointer && record) {
    await endSubgraphRuns(
      record.threadId,
      writer.runId,
      graph.subgraphs,
      checkpointer,
      subgraphReason,
    );
  }
  return after;
}
