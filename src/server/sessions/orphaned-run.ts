import type { AgentRunner } from '../../agents/index.ts';
import { type Checkpointer, runsElsewhere } from '../../graph/index.ts';

/** Why a run left behind is closed, as its error says. */
export const leftBehindReason =
  'the instance running it stopped or lost its database; the run was closed so the session can go on';

/**
 * Whether the session has a run left behind: its conversation (or ops loop) stands at a step
 * marked running, while no run of the session goes in this process, and the instance that
 * wrote the step is this one or is no longer alive.
 */
export async function hasOrphanedRun(
  runner: AgentRunner,
  checkpointer: Checkpointer,
  sessionId: string,
): Promise<boolean> {
  if (runner.isRunning(sessionId)) return false;
  for (const state of await runner.threadStates(sessionId)) {
    if (state?.status === 'running' && !(await runsElsewhere(checkpointer, state.owner))) {
      return true;
    }
  }
  return false;
}

/** Closes the session's run left behind, if it has one (`runner.abandon`); true when it did. */
export async function closeOrphanedRun(
  runner: AgentRunner,
  checkpointer: Checkpointer,
  sessionId: string,
): Promise<boolean> {
  if (!(await hasOrphanedRun(runner, checkpointer, sessionId))) return false;
  return runner.abandon(sessionId, leftBehindReason);
}
