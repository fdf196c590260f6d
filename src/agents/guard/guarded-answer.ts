import { refusalOf } from '../../guardrails/index.ts';
import type { ModelCallResult } from '../../models/index.ts';
import type { RunGuard } from './run-guard.ts';

/**
 * One model call with its answer through the output stage: streamed text is handed on only
 * once it passed (`send`), the held rest when the answer ends; the answer keeps what the
 * stage left, and a block replaces it with a refusal in the user's language and drops its
 * tool calls. A turn that only calls tools is not checked. Without output guardrails the call
 * runs as it is.
 */
export async function guardedAnswer(
  guard: RunGuard | undefined,
  korean: boolean,
  send: ((text: string) => void) | undefined,
  call: (onTextDelta: ((text: string) => void) | undefined) => Promise<ModelCallResult>,
): Promise<ModelCallResult> {
  const output = guard?.output();
  if (guard === undefined || output === undefined) return call(send);
  const result = await call(
    send === undefined
      ? undefined
      : (text) => {
          const passed = output.push(text);
          if (passed !== '') send(passed);
        },
  );
  // A turn that only calls tools wrote no answer: the output stage (a custom check too) has nothing to see.
  if (result.text === '' && result.toolCalls.length > 0) return result;
  if (send === undefined) output.push(result.text);
  const ended = await output.end();
  if (send !== undefined && ended.rest !== '' && ended.blocked === undefined) send(ended.rest);
  guard.answered(ended);
  if (ended.blocked !== undefined) {
    return { ...result, text: refusalOf(ended.blocked, korean), toolCalls: [] };
  }
  return { ...result, text: ended.text };
}
