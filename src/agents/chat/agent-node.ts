import { createId, isYeoulError } from '../../core/index.ts';
import type { NodeContext } from '../../graph/index.ts';
import { agentSystemPrompt, defaultPersona, isKorean, modelFailureAnswer } from '../prompts.ts';
import { assistantMessage, callAgentModel } from '../run-tool-calls.ts';
import type { AgentDependencies } from '../types.ts';
import { addUsage } from '../usage.ts';
import type { ChatState } from './chat-state.ts';

/**
 * The agent node: persona + summary window + reference documents as the system prompt,
 * the recent messages, the usable tools, the request's temperature. Streams tokens as
 * `token` events. A model that stays unreachable ends the run with a friendly answer and
 * an error code instead of a throw.
 */
export function createAgentNode(deps: AgentDependencies) {
  const persona = deps.persona ?? defaultPersona;
  return async (state: ChatState, context: NodeContext) => {
    const lastUser = [...state.messages].reverse().find((message) => message.role === 'user');
    try {
      const system = agentSystemPrompt(persona, state.summary, state.context, state.profile);
      const prompt = {
        system,
        messages: state.messages,
        temperature: state.options.temperature,
        maxOutputTokens: state.options.maxOutputTokens,
      };
      const result = await callAgentModel(deps, prompt, context);
      return {
        messages: assistantMessage(result),
        iterations: state.iterations + 1,
        usage: addUsage(state.usage, result.usage),
      };
    } catch (error) {
      if (context.signal.aborted || !isYeoulError(error)) throw error;
      const answer = modelFailureAnswer(isKorean(lastUser?.content ?? ''), error.code);
      // An answer of its own: tokens of the failed call may have gone out already.
      const id = createId();
      context.emit('answer-start', { id });
      context.emit('token', { text: answer });
      return {
        messages: { id, role: 'assistant' as const, content: answer },
        usage: addUsage(
          state.usage,
          { inputTokens: 0, outputTokens: 0 },
          (error as { attempts?: number }).attempts ?? 1,
        ),
        error: { code: error.code, message: error.message },
      };
    }
  };
}
