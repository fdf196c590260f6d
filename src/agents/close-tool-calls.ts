import { type RunEnding, RunSupersededError } from '../graph/index.ts';
import { openToolTurn } from './run-tool-calls.ts';
import type { ChatMessage } from './types.ts';

/**
 * Tool results for the calls of the last assistant turn that got none (the run stopped
 * first: a crash, a cancel, a limit, a denied approval), so that the conversation stays
 * valid for the next model call — providers refuse a tool call without its result.
 */
export function closeDanglingToolCalls(messages: ChatMessage[], reason: string): ChatMessage[] {
  const { calls, done } = openToolTurn(messages);
  return calls
    .filter((call) => !done.has(call.id))
    .map((call) => ({
      role: 'tool',
      toolCallId: call.id,
      name: call.name,
      content: `Error: not run (${reason})`,
      isError: true,
    }));
}

/** Why a run's open tool calls were closed, in words the model (and a person) can read. */
export function endingReason(ending: RunEnding): string {
  if (ending.cause instanceof RunSupersededError) {
    return 'the run was interrupted by a newer message';
  }
  if (ending.status === 'failed') return 'the run was interrupted before this call finished';
  if (ending.status === 'cancelled') return 'the run was cancelled';
  return `the run failed: ${ending.error.message}`;
}

/**
 * The chat and react graphs' `closeRun`: every open tool call gets an error result; a run a
 * newer message stopped also keeps the answer it had begun, `interrupted` (possibly empty).
 */
export function closeRunMessages(
  values: Record<string, unknown>,
  ending: RunEnding,
): { messages: ChatMessage[] } | undefined {
  const closing = closeDanglingToolCalls(
    (values.messages as ChatMessage[] | undefined) ?? [],
    endingReason(ending),
  );
  if (ending.cause instanceof RunSupersededError) {
    closing.push({ role: 'assistant', content: ending.cause.partialText, interrupted: true });
  }
  return closing.length > 0 ? { messages: closing } : undefined;
}
