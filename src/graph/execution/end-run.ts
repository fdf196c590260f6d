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
  const after = await writer.end(graph, values, step, ending);
  const { checkpointer, record } = writer;
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
