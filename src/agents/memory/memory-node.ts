import type { NodeContext } from '../../graph/index.ts';
import { removeMessage } from '../../graph/index.ts';
import { summarizerPrompt } from '../prompts.ts';
import type { AgentDependencies, AgentUsage, ChatMessage } from '../types.ts';
import { addUsage } from '../usage.ts';
import { defaultMemorySettings } from './memory-settings.ts';
import { planSummary, transcriptOf } from './plan-summary.ts';
import { addSummaryToWindow, summarySeparator } from './summary-window.ts';

/**
 * What the summariser is given: the summaries so far (so that facts such as the user's
 * name are carried forward when the oldest summary slides out of the window) and the
 * messages to fold in.
 */
function summaryRequest(summary: string, old: ChatMessage[]): string {
  const previous = summary.trim()
    ? `[지금까지의 요약]\n${summary.split(summarySeparator).join('\n')}\n\n`
    : '';
  return `${previous}[요약할 대화]\n${transcriptOf(old)}`;
}

/** What the memory node reads and writes. */
interface MemoryState {
  messages: ChatMessage[];
  summary: string;
  usage: AgentUsage;
}

/**
 * The hybrid memory node of seed 004: once the conversation reaches MAX_MESSAGES, the
 * older messages are summarised by the LLM into the sliding window of summaries and
 * removed, keeping the KEEP_RECENT most recent ones.
 */
export function createMemoryNode(deps: AgentDependencies) {
  const settings = { ...defaultMemorySettings, ...deps.memory };
  return async (state: MemoryState, context: NodeContext) => {
    const plan = planSummary(state.messages, settings);
    if (plan === undefined) return undefined;
    let result: Awaited<ReturnType<typeof deps.model.call>>;
    try {
      result = await deps.model.call({
        system: summarizerPrompt,
        messages: [{ role: 'user', content: summaryRequest(state.summary, plan.old) }],
        temperature: 0,
        signal: context.signal,
      });
    } catch (error) {
      if (context.signal.aborted) throw error;
      // Nothing is lost when a summary fails: the messages stay, and the token budget
      // trims the prompt; the summary is tried again next turn.
      return undefined;
    }
    return {
      summary: addSummaryToWindow(state.summary, result.text, settings.maxSummaries),
      messages: plan.old.map((message) => removeMessage(message.id as string)),
      usage: addUsage(state.usage, result.usage),
    };
  };
}
