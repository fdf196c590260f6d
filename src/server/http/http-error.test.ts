import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CheckpointConflictError,
  ForkPointError,
  InterruptAnsweredError,
  InterruptNotFoundError,
  InvalidRunConfigError,
  NothingToResumeError,
  NotInterruptedError,
  PendingRunError,
  RunInterruptedError,
  ThreadExistsError,
  ThreadNotFoundError,
} from '../../graph/index.ts';
import { errorResponse } from './http-error.ts';

const statusAndCode = (error: unknown) => {
  const { status, body } = errorResponse(error);
  return [status, body.error.code];
};

describe('errorResponse', () => {
  it('shows the graph runtime’s errors with the statuses and codes clients know', () => {
    const threadId = 't';
    assert.deepEqual(
      [
        new RunInterruptedError({ threadId, interrupts: [] }),
        new InterruptAnsweredError({ threadId, interruptIds: ['i'] }),
        new NotInterruptedError({ threadId }),
        new InterruptNotFoundError({ threadId, interruptIds: ['i'] }),
        new NothingToResumeError({ threadId }),
        new PendingRunError({ threadId, runId: 'r' }),
        new ThreadExistsError({ threadId }),
        new ThreadNotFoundError({ threadId }),
        new CheckpointConflictError({ threadId, seq: 2 }),
        new ForkPointError({ threadId, atStep: 3, reason: 'inside a super-step', nearest: [2] }),
        new InvalidRunConfigError({ problems: ['maxSteps'] }),
      ].map(statusAndCode),
      [
        [409, 'awaiting_approval'],
        [409, 'already_decided'],
        [409, 'not_interrupted'],
        [404, 'interrupt_not_found'],
        [409, 'run_not_resumable'],
        [409, 'run_pending'],
        [409, 'thread_exists'],
        [404, 'thread_not_found'],
        [409, 'checkpoint_conflict'],
        [400, 'invalid_fork_point'],
        [400, 'graph_invalid_run_config'],
      ],
    );
  });

  it('names the questions a paused run waits on', () => {
    const pending = { id: 'i1', key: 'approve', node: 'tools', value: {}, createdAt: 1 };
    const { body } = errorResponse(
      new RunInterruptedError({ threadId: 't', interrupts: [pending] }),
    );
    const details = body.error.details as { interrupts: unknown[] };
    assert.equal(details.interrupts.length, 1);
  });
});
