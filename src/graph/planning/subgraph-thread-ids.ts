// A subgraph's runs commit to threads of their own, named after the parent's thread, run,
// super-step and task: `<thread>#<node>@<run>.<step>.<task>`. A subgraph nested in it
// goes on with `#`: `<thread>#<node>@<run>.<step>.<task>#<inner node>@…`.

/** The thread one run of the subgraph at `node` commits to. */
export function subgraphThreadId(
  threadId: string,
  node: string,
  runId: string,
  step: number,
  task: number,
): string {
  return `${subgraphThreadPrefix(threadId, node, runId)}${step}.${task}`;
}

/**
 * What the ids of the threads of the subgraph at `node` under `threadId` start with (those
 * of one parent run, with `runId`); ids nested in them go on with `#`.
 */
export function subgraphThreadPrefix(threadId: string, node: string, runId?: string): string {
  const prefix = `${threadId}#${node}@`;
  return runId === undefined ? prefix : `${prefix}${runId}.`;
}

/** The parent run a thread of `subgraphThreadPrefix(threadId, node)` (or one nested in it) belongs to. */
export function parentRunOf(
  threadId: string,
  node: string,
  subgraphThreadId: string,
): string | undefined {
  // `<run>.<step>.<task>` after the prefix, then `#…` for a subgraph nested in it.
  const own =
    subgraphThreadId.slice(subgraphThreadPrefix(threadId, node).length).split('#')[0] ?? '';
  return /^(.*)\.\d+\.\d+$/.exec(own)?.[1];
}
