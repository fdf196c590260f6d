import type { PendingInterrupt } from './checkpoint/types.ts';

const interruptTag = Symbol.for('yeoul.graph.interrupt');

/** One question a node asks before its run may go on; `key` names it within the node (a tool call id). */
export interface InterruptRequest {
  key: string;
  /** An id to use instead of a new one (a graph passing on the questions of a graph it runs). */
  id?: string;
  /** When the question was first asked, when it is passed on from another graph. */
  createdAt?: number;
  /** Plain JSON data: what the person deciding needs to see. */
  value: unknown;
  /** Where inside a subgraph the question was asked (set when a subgraph passes it on). */
  path?: string[];
}

/** What a node returns to pause its run: the questions, and the part of its work that is done. */
export interface InterruptOutcome<Update = Record<string, unknown>> {
  readonly [interruptTag]: true;
  readonly requests: InterruptRequest[];
  readonly update: Update | undefined;
}

/** What a node that was paused sees when its run resumes: the questions and the answers so far. */
export interface ResumeInfo {
  interrupts: PendingInterrupt[];
  /** Answers by interrupt id; a question without an answer is still open. */
  answers: Record<string, unknown>;
  /** Ids of this run's questions answered before, these answers included. */
  answered: string[];
}

/**
 * Pauses the run: the node's `update` (work already done, e.g. the results of tool calls
 * that needed no approval) is committed with the questions, and the run waits until
 * `resume` answers at least one of them. The node then runs again, with
 * `context.resume` holding the answers; it must not redo what `update` recorded.
 * An interrupt is an outcome, not an error: `run` reports it as `status: 'interrupted'`.
 * @example
 * .addNode('tools', (state, context) => {
 *   const answer = context.resume?.answers[…];
 *   if (answer === undefined) return interrupt([{ key: call.id, value: { tool: call.name } }]);
 * })
 */
export function interrupt<Update>(
  requests: InterruptRequest[],
  update?: Update,
): InterruptOutcome<Update> {
  if (requests.length === 0) throw new RangeError('an interrupt needs at least one request');
  return { [interruptTag]: true, requests, update };
}

/** Whether a node's result is an interrupt. */
export function isInterrupt(value: unknown): value is InterruptOutcome<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && interruptTag in value;
}

/** The answer a resumed node got for the question it asked under `key`, if any. */
export function answerFor(resume: ResumeInfo | undefined, key: string): unknown {
  const asked = resume?.interrupts.find((pending) => pending.key === key);
  return asked === undefined ? undefined : resume?.answers[asked.id];
}
