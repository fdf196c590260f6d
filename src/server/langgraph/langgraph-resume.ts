import type { ApprovalDecision } from '../../agents/index.ts';
import type { PendingInterrupt } from '../../graph/index.ts';
import { HttpError } from '../http/http-error.ts';
import { invalidInput } from './langgraph-fields.ts';

/** One decision as LangChain's human-in-the-loop middleware answers, or Yeoul's own shape. */
function decisionOf(id: string, value: unknown, field: string): ApprovalDecision {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    if (Array.isArray(record.decisions)) {
      const [only, ...rest] = record.decisions as Array<Record<string, unknown> | null>;
      if (only?.type === 'approve' && rest.length === 0) return { id, approve: true };
      if (only?.type === 'reject' && rest.length === 0) {
        const message = typeof only.message === 'string' ? only.message : undefined;
        return { id, approve: false, ...(message === undefined ? {} : { reason: message }) };
      }
    } else if (typeof record.approve === 'boolean') {
      const reason = typeof record.reason === 'string' ? record.reason : undefined;
      return { id, approve: record.approve, ...(reason === undefined ? {} : { reason }) };
    }
  }
  throw invalidInput(
    field,
    'a decision is {decisions: [{type: "approve"} | {type: "reject", message?}]} or {approve, reason?}',
  );
}

/** Whether `value` is one decision (rather than decisions by interrupt id). */
function isOneDecision(value: unknown): boolean {
  return (
    typeof value === 'object' && value !== null && ('decisions' in value || 'approve' in value)
  );
}

/**
 * The decisions `command.resume` makes: one VALUE for the thread's one pending approval, or
 * `{ID: VALUE, …}` for several. A thread not paused is 409 `not_interrupted` — or, when its
 * last run asked already, 409 `already_decided`.
 */
export function decisionsOfResume(
  resume: unknown,
  pending: readonly PendingInterrupt[],
  askedBefore: boolean,
): ApprovalDecision[] {
  if (isOneDecision(resume)) {
    const [only, ...more] = pending;
    if (only === undefined) {
      throw askedBefore
        ? new HttpError({
            status: 409,
            code: 'already_decided',
            message: 'the approval this decision answers was decided already',
          })
        : new HttpError({
            status: 409,
            code: 'not_interrupted',
            message: 'the thread has no approval waiting for a decision',
          });
    }
    if (more.length > 0) {
      throw invalidInput(
        'command.resume',
        `${pending.length} approvals wait: answer {ID: decision} for each`,
      );
    }
    return [decisionOf(only.id, resume, 'command.resume')];
  }
  if (typeof resume !== 'object' || resume === null || Array.isArray(resume)) {
    throw invalidInput('command.resume', 'a decision, or decisions by interrupt id');
  }
  return Object.entries(resume).map(([id, value]) => decisionOf(id, value, `command.resume.${id}`));
}

/**
 * The answers `command.resume` gives a graph of the config file paused on questions: `{ID:
 * VALUE, …}` naming pending interrupts, else one VALUE for the thread's one question. A thread
 * not paused is 409 (`already_decided` when its last run asked already).
 */
export function answersOfResume(
  resume: unknown,
  pending: readonly PendingInterrupt[],
  askedBefore: boolean,
): Record<string, unknown> {
  const ids = new Set(pending.map((interrupt) => interrupt.id));
  if (typeof resume === 'object' && resume !== null && !Array.isArray(resume)) {
    const keys = Object.keys(resume);
    if (keys.length > 0 && keys.every((key) => ids.has(key))) {
      return resume as Record<string, unknown>;
    }
  }
  const [only, ...more] = pending;
  if (only === undefined) {
    throw new HttpError({
      status: 409,
      code: askedBefore ? 'already_decided' : 'not_interrupted',
      message: askedBefore
        ? 'the question this answer is for was answered already'
        : 'the thread has no question waiting for an answer',
    });
  }
  if (more.length > 0) {
    throw invalidInput('command.resume', `${pending.length} questions wait: answer {ID: value}`);
  }
  return { [only.id]: resume };
}
