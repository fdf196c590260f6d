import { z } from 'zod';
import type { ChatMessage } from '../../models/index.ts';
import { HttpError } from '../http/http-error.ts';
import { clientInstructionsLabel } from '../openai/chat-completion-request.ts';
import { messageItem, textOfContent } from './response-request.ts';

/** An item of a conversation, as OpenAI's Conversations API lists it. */
export type ConversationItem = Record<string, unknown> & { id: string; type: string };

/** Items a conversation is made with or given (`POST /v1/conversations`, `…/items`): messages, at most 20. */
export const conversationItems = z.array(messageItem).max(20, 'at most 20 items at a time');

/** A conversation's items from the session's messages: messages, function calls, their outputs. */
export function itemsOfMessages(messages: readonly ChatMessage[]): ConversationItem[] {
  return messages.flatMap((message, index): ConversationItem[] => {
    const id = message.id ?? `msg_${index}`;
    if (message.role === 'tool') {
      return [
        {
          type: 'function_call_output',
          id,
          call_id: message.toolCallId ?? '',
          output: message.content,
          status: 'completed',
        },
      ];
    }
    const items: ConversationItem[] = [];
    if (message.content !== '' || message.toolCalls === undefined) {
      const part = message.role === 'assistant' ? 'output_text' : 'input_text';
      items.push({
        type: 'message',
        id,
        role: message.role,
        status: 'completed',
        content: [
          part === 'output_text'
            ? { type: part, text: message.content, annotations: [] }
            : { type: part, text: message.content },
        ],
      });
    }
    for (const call of message.toolCalls ?? []) {
      items.push({
        type: 'function_call',
        id: `fc_${call.id}`,
        call_id: call.id,
        name: call.name,
        arguments: typeof call.args === 'string' ? call.args : JSON.stringify(call.args ?? {}),
        status: 'completed',
      });
    }
    return items;
  });
}

/**
 * Messages for the session from given items: a system or developer message reaches the
 * model as a user message marked as the client's instructions.
 */
export function messagesOfItems(items: z.infer<typeof conversationItems>): ChatMessage[] {
  return items.map((item) => {
    const text = textOfContent(item.content);
    if (item.role === 'system' || item.role === 'developer') {
      return { role: 'user' as const, content: `${clientInstructionsLabel}\n${text}` };
    }
    return { role: item.role, content: text };
  });
}

/** One page of items: `limit` of them in `order`, after the item `after`. */
export function pageOfItems(
  items: ConversationItem[],
  query: { limit: number; order: 'asc' | 'desc'; after?: string | undefined },
) {
  const ordered = query.order === 'asc' ? items : [...items].reverse();
  let start = 0;
  if (query.after !== undefined) {
    const at = ordered.findIndex((item) => item.id === query.after);
    if (at === -1) {
      throw new HttpError({
        status: 400,
        code: 'invalid_request',
        message: `after: no item "${query.after}" in this conversation`,
        details: { param: 'after' },
      });
    }
    start = at + 1;
  }
  const data = ordered.slice(start, start + query.limit);
  return {
    object: 'list' as const,
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: start + query.limit < ordered.length,
  };
}
