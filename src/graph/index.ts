// The graph runtime's one door. Its files form layers, each importing only those below it:
// - vocabulary: types.ts, state.ts, channels.ts, messages.ts, send.ts, interrupt.ts, errors/,
//   checkpoint/types.ts;
// - planning/ (pure): the next tasks, a super-step's writes and replay, validation, Mermaid,
//   subgraph thread ids, interrupt ids;
// - storage/: the thread store, forks, the run writer (it only commits), subgraph threads,
//   and the checkpoint/ backends;
// - execution/: one task, one super-step (runSuperstep), opening and ending a run, the loop,
//   the queue that serializes a thread's runs;
// - face: subgraph.ts, compiled-graph.ts, builder.ts.

export { type GraphNode, StateGraph } from './builder.ts';
export {
  append,
  type Channel,
  type ChannelUpdate,
  type ChannelValue,
  increment,
  reducer,
  replace,
} from './channels.ts';
export { runsElsewhere } from './checkpoint/host-identity.ts';
export { MemoryCheckpointer } from './checkpoint/memory-checkpointer.ts';
export { checkpointMigrations } from './checkpoint/postgres-checkpoint-migrations.ts';
export { PostgresCheckpointer } from './checkpoint/postgres-checkpointer.ts';
export { SqliteCheckpointer } from './checkpoint/sqlite-checkpointer.ts';
export type { AppendOptions, Checkpointer, PendingInterrupt } from './checkpoint/types.ts';
export { CompiledGraph, type ResumeConfig } from './compiled-graph.ts';
// Error codes name their subject first, in the runtime's own words: `graph_*` (the graph as
// declared and what its nodes did), `subgraph_*`, `thread_*`, `run_*`, `interrupt_*`,
// `checkpoint_*`. `concurrent_update` and `invalid_fork_point` keep the names package users
// and the CLI match on. The server shows each code with the status and word its clients know.
export { CheckpointConflictError } from './errors/checkpoint-conflict-error.ts';
export { ForkPointError } from './errors/fork-point-error.ts';
export { GraphValidationError } from './errors/graph-validation-error.ts';
export { InterruptAnsweredError } from './errors/interrupt-answered-error.ts';
export { InterruptNotFoundError } from './errors/interrupt-not-found-error.ts';
export { InvalidRouteError } from './errors/invalid-route-error.ts';
export { InvalidRunConfigError } from './errors/invalid-run-config-error.ts';
export { InvalidUpdateError } from './errors/invalid-update-error.ts';
export { MissingCheckpointerError } from './errors/missing-checkpointer-error.ts';
export { NodeFailedError } from './errors/node-failed-error.ts';
export { NotInterruptedError } from './errors/not-interrupted-error.ts';
export { NothingToResumeError } from './errors/nothing-to-resume-error.ts';
export { PendingRunError } from './errors/pending-run-error.ts';
export { RecursionLimitError } from './errors/recursion-limit-error.ts';
export { RunCancelledError } from './errors/run-cancelled-error.ts';
export { RunInterruptedError } from './errors/run-interrupted-error.ts';
export { RunSupersededError } from './errors/run-superseded-error.ts';
export { SubgraphUpdateError } from './errors/subgraph-update-error.ts';
export { ThreadExistsError } from './errors/thread-exists-error.ts';
export { ThreadNotFoundError } from './errors/thread-not-found-error.ts';
export {
  answerFor,
  type InterruptOutcome,
  type InterruptRequest,
  interrupt,
  isInterrupt,
} from './interrupt.ts';
export {
  type MessageLike,
  type MessagesUpdate,
  messages,
  type RemoveMessage,
  removeAllMessages,
  removeMessage,
} from './messages.ts';
export { type Send, send } from './send.ts';
export { defineState, type StateOf, type StateSchema, type UpdateOf } from './state.ts';
export {
  type ClosingStep,
  type CompileOptions,
  type Durability,
  END,
  type GraphEvent,
  type HistoryEntry,
  type NodeContext,
  type NodeFunction,
  type NodeResult,
  type RouterFunction,
  type RunConfig,
  type RunEnding,
  type RunResult,
  START,
  type ThreadState,
} from './types.ts';
