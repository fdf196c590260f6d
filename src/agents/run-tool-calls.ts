import type { NodeContext } from '../graph/index.ts';
import type { ModelCallResult, ToolCall } from '../models/index.ts';
import { ToolExecutor } from '../tools/index.ts';
import type { AgentDependencies, ChatMessage } from './types.ts';

/** Tool executions allowed per request (T10). */
export const maxToolCallsPerRequest = 5;

/**
 * Runs tool calls (no LLM) within the request's limit — `alreadyRun` calls count against
 * it — streaming `tool-call` / `tool-result` events, and returns one tool message per
 * call, failures included as error results the model sees.
 */
export async function runToolCalls(
  deps: AgentDependencies,
  calls: ToolCall[],
  alreadyRun: number,
  context: NodeContext,
): Promise<ChatMessage[]> {
  const executor = new ToolExecutor(deps.tools, {
    env: deps.toolEnvironment,
    maxCalls: Math.max(0, maxToolCallsPerRequest - alreadyRun),
    signal: context.signal,
  });
  const results: ChatMessage[] = [];
  for (const call of calls) {
    context.emit('tool-call', { id: call.id, name: call.name, args: call.args });
    const result = await executor.execute(call);
    context.emit('tool-result', {
      id: call.id,
      name: call.name,
      result: result.content,
      ...(result.isError ? { error: true } : {}),
    });
    results.push({
      role: 'tool',
      toolCallId: call.id,
      name: call.name,
      content: result.content,
      isError: result.isError,
    });
  }
  return results;
}

/** One agent model call: the usable tools bound, the request's temperature, tokens streamed. */
export function callAgentModel(
  deps: AgentDependencies,
  prompt: { system: string; messages: ChatMessage[]; temperature: number | undefined },
  context: NodeContext,
): Promise<ModelCallResult> {
  return deps.model.call({
    system: prompt.system,
    messages: prompt.messages,
    tools: deps.tools.describe(deps.toolEnvironment),
    ...(prompt.temperature === undefined ? {} : { temperature: prompt.temperature }),
    signal: context.signal,
    ...(wantsTokens(context)
      ? { onTextDelta: (text: string) => context.emit('token', { text }) }
      : {}),
  });
}

/**
 * Whether anyone reads token events: runs say so through `context.streamTokens` (the
 * agent runner sets it for streaming requests); unsaid, tokens are streamed.
 */
export function wantsTokens(context: NodeContext): boolean {
  return (context.context as { streamTokens?: boolean } | undefined)?.streamTokens !== false;
}

/** The assistant message of a model call: its text, and its tool calls when there are any. */
export function assistantMessage(result: ModelCallResult): ChatMessage {
  const message: ChatMessage = { role: 'assistant', content: result.text };
  if (result.toolCalls.length > 0) message.toolCalls = result.toolCalls;
  return message;
}
