import type { ChatMessage } from '../../models/index.ts';
import type { MemorySettings } from './memory-settings.ts';

/** Which messages to fold into a summary and which to keep. */
export interface SummaryPlan {
  old: ChatMessage[];
  recent: ChatMessage[];
}

/**
 * When the conversation has reached `maxMessages`, splits it into the older messages to
 * summarise and the last `keepRecent` to keep. The cut moves earlier when it
 * would separate a tool call from its results, so the kept part never starts with an
 * orphan tool result. Returns undefined while no summary is due.
 */
export function planSummary(
  messages: ChatMessage[],
  settings: MemorySettings,
): SummaryPlan | undefined {
  if (messages.length < settings.maxMessages) return undefined;
  let cut = Math.max(0, messages.length - settings.keepRecent);
  while (cut > 0 && messages[cut]?.role === 'tool') cut -= 1;
  if (cut === 0) return undefined;
  return { old: messages.slice(0, cut), recent: messages.slice(cut) };
}

/** The conversation as text for the summariser: one line per message, tool traffic included. */
export function transcriptOf(messages: ChatMessage[]): string {
  return messages
    .map((message) => {
      if (message.role === 'tool') return `도구(${message.name ?? 'tool'}): ${message.content}`;
      const speaker =
        message.role === 'user' ? '사용자' : message.role === 'assistant' ? 'AI' : '시스템';
      const calls = (message.toolCalls ?? [])
        .map((call) => `${call.name}(${JSON.stringify(call.args)})`)
        .join(', ');
      return `${speaker}: ${message.content}${calls ? ` [도구 호출: ${calls}]` : ''}`;
    })
    .join('\n');
}
