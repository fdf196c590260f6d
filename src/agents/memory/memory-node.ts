import type { NodeContext } from '../../graph/index.ts';
import { removeMessage } from '../../graph/index.ts';
import { forOwner } from '../../memory-store/index.ts';
import { summarizerPrompt } from '../prompts.ts';
import type { AgentDependencies, AgentOptions, AgentUsage, ChatMessage } from '../types.ts';
import { addUsage } from '../usage.ts';
import { readProfileBlock, rememberProfileFacts } from './long-term-profile.ts';
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
  // A message a guardrail blocked is never sent to a model, in a summary request neither.
  return `${previous}[요약할 대화]\n${transcriptOf(old.filter((message) => message.blocked !== true))}`;
}

/** What the memory node reads and writes. */
interface MemoryState {
  messages: ChatMessage[];
  summary: string;
  usage: AgentUsage;
  options: AgentOptions;
}

/**
 * The memory node: long-term memory first (when the run has an owner and the store is on:
 * what the user states about themselves goes to their profile, and the profile block is
 * read for the system prompt), then the hybrid short-term memory: once the conversation
 * reaches MAX_MESSAGES, the older messages are summarised by the LLM into the sliding
 * window of summaries and removed, keeping the KEEP_RECENT most recent ones.
 */
export function createMemoryNode(deps: AgentDependencies) {
  const settings = { ...defaultMemorySettings, ...deps.memory };
  return async (state: MemoryState, context: NodeContext) => {
    const longTerm = await longTermMemory(deps, state, context.signal);
    const plan = planSummary(state.messages, settings);
    if (plan === undefined) return longTerm;
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
      return longTerm;
    }
    return {
      ...longTerm,
      summary: addSummaryToWindow(state.summary, result.text, settings.maxSummaries),
      messages: plan.old.map((message) => removeMessage(message.id as string)),
      usage: addUsage(longTerm.usage, result.usage),
    };
  };
}

/**
 * The owner's profile block for this run, after keeping what the user's message states
 * about them. Nothing is read or written without an owner or a store; a store that fails
 * leaves the turn without the block rather than without an answer.
 */
async function longTermMemory(
  deps: AgentDependencies,
  state: MemoryState,
  signal: AbortSignal,
): Promise<{ profile: string; usage: AgentUsage }> {
  const owner = state.options.memoryOwner;
  if (owner === undefined || deps.longTermMemory === undefined) {
    return { profile: '', usage: state.usage };
  }
  const memory = forOwner(deps.longTermMemory, owner);
  const message = [...state.messages].reverse().find((entry) => entry.role === 'user');
  let usage = state.usage;
  try {
    const extra = await rememberProfileFacts(deps, memory, message?.content ?? '', signal);
    usage = addUsage(usage, extra, extra.llmCalls);
    return { profile: await readProfileBlock(memory), usage };
  } catch (error) {
    if (signal.aborted) throw error;
    return { profile: '', usage };
  }
}
