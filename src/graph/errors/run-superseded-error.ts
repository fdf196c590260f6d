import { YeoulError } from '../../core/index.ts';

/**
 * What a run is stopped with (its AbortSignal's reason) when a newer run on its thread takes
 * its place. Its end is committed as a cancel's is, with this as the ending's `cause` (the
 * graph's `closeRun` may add what the run had begun); with `rollback` its entries are removed
 * instead, as if it had not run.
 */
export class RunSupersededError extends YeoulError {
  /** The run that takes its place. */
  readonly byRunId: string;
  /** True: the stopped run's entries are removed from its threads. */
  readonly rollback: boolean;
  /** Text of an answer the run had begun to stream when it stopped (set by whoever streamed it). */
  partialText = '';

  constructor(fields: { byRunId: string; rollback: boolean }) {
    super('run_superseded', `the run was interrupted by a newer run (${fields.byRunId})`);
    this.byRunId = fields.byRunId;
    this.rollback = fields.rollback;
  }
}
