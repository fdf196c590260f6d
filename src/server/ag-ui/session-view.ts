import type { ChatMessage } from '../../models/index.ts';
import { HttpError } from '../http/http-error.ts';
import type { Runtime } from '../runtime/create-runtime.ts';
import type { SessionView, WaitingCall } from './ag-ui-turn.ts';

/** What a pending interrupt's value says of its call (a tool approval or a client tool). */
interface AskedCall {
  type?: string;
  tool?: string;
  args?: unknown;
  toolCallId?: string;
}

/** The session's messages and the calls its paused run waits on, as committed now. */
export async function sessionView(
  runtime: Pick<Runtime, 'runner'>,
  sessionId: string,
): Promise<SessionView> {
  const graph = await runtime.runner.threadGraph(sessionId);
  const state = await graph.getState(sessionId);
  if (state === undefined) return { exists: false, messages: [], waiting: [] };
  const messages = (state.values as { messages?: ChatMessage[] }).messages ?? [];
  const waiting = (state.interrupts ?? []).map((pending): WaitingCall => {
    const asked = (pending.value ?? {}) as AskedCall;
    return {
      id: pending.id,
      type: asked.type === 'client-tool' ? 'client-tool' : 'tool-approval',
      tool: asked.tool ?? 'unknown',
      args: asked.args ?? {},
      toolCallId: asked.toolCallId ?? pending.key,
    };
  });
  return { exists: true, messages: Array.isArray(messages) ? messages : [], waiting };
}

/**
 * Checks the client's tools: offered by the built-in agents that answer without the
 * evaluation loop, under names none of Yeoul's tools has (422 naming the field otherwise).
 */
export function checkClientTools(
  runtime: Pick<Runtime, 'graphs' | 'registry'>,
  graph: string,
  tools: Array<{ name: string }>,
): void {
  if (tools.length === 0) return;
  const entry = runtime.graphs.get(graph);
  const fields: string[] = [];
  if (entry === undefined || !entry.builtin || entry.handoff.evaluate) fields.push('tools');
  const own = new Set(runtime.registry.names());
  tools.forEach((tool, index) => {
    if (own.has(tool.name)) fields.push(`tools[${index}].name`);
  });
  if (fields.length === 0) return;
  throw new HttpError({
    status: 422,
    code: 'unsupported_field',
    message: `not supported here: ${fields.join(', ')} (client tools go to the chat and react agents, under names Yeoul's own tools do not have)`,
    details: { fields },
  });
}
