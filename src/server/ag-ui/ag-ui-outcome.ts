import type { RunFinishedOutcome } from '@ag-ui/core';
import type { AgentResponse } from '../../agents/index.ts';
import type { WaitingCall } from './ag-ui-turn.ts';

/** What an approval's answer looks like: what `resume[].payload` carries. */
const approvalResponseSchema = {
  type: 'object',
  properties: { approved: { type: 'boolean' }, reason: { type: 'string' } },
  required: ['approved'],
};

/** How a run that did not fail ended, in AG-UI's terms. */
export function outcomeOf(payload: AgentResponse, waiting: WaitingCall[]): RunFinishedOutcome {
  if (payload.status === 'cancelled') return { type: 'cancelled' };
  const approvals = waiting.filter((call) => call.type === 'tool-approval');
  if (payload.status === 'interrupted' && approvals.length > 0) {
    return {
      type: 'interrupt',
      interrupts: approvals.map((call) => ({
        id: call.id,
        reason: 'tool_approval',
        message: `${call.tool} wants to run with ${JSON.stringify(call.args ?? {})}: approve?`,
        toolCallId: call.toolCallId,
        responseSchema: approvalResponseSchema,
      })),
    } as RunFinishedOutcome;
  }
  const pending = waiting.filter((call) => call.type === 'client-tool');
  if (payload.status === 'interrupted' && pending.length > 0) {
    return { type: 'success', pendingToolCallIds: pending.map((call) => call.toolCallId) };
  }
  return { type: 'success' };
}
