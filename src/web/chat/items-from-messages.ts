import type { Interrupt, StoredMessage } from '../api/types.ts';
import {
  type AssistantItem,
  type ChatItem,
  itemKey,
  mergeInterrupts,
  startTurn,
  withBlockedUsers,
  withResult,
} from './chat-items.ts';

/**
 * A session's stored messages as the console shows them: each user message, then one
 * assistant item gathering the turn's tool calls, their results and the answer.
 */
export function itemsFromMessages(messages: StoredMessage[], interrupts: Interrupt[]): ChatItem[] {
  const items: ChatItem[] = [];
  let turn: AssistantItem | undefined;
  const finish = () => {
    if (turn) items.push(turn);
    turn = undefined;
  };
  for (const message of messages) {
    if (message.role === 'system') continue;
    if (message.role === 'user') {
      finish();
      items.push({
        kind: 'user',
        key: itemKey('user'),
        text: message.content,
        ...(message.id ? { messageId: message.id } : {}),
        ...(message.blocked ? { blocked: true } : {}),
      });
      continue;
    }
    const last = items.at(-1);
    turn ??= {
      ...startTurn(
        last?.kind === 'user' ? last.text : '',
        last?.kind === 'user' ? last.messageId : undefined,
      ),
      running: false,
    };
    if (message.role === 'assistant') {
      // The refusal of a blocked turn (the guardrail's name is in the turn's history).
      if (message.blocked) turn.status = 'blocked';
      if (message.content)
        turn.text = turn.text ? `${turn.text}\n\n${message.content}` : message.content;
      for (const call of message.toolCalls ?? [])
        turn.tools.push({ id: call.id, name: call.name, args: call.args });
    } else {
      const id = message.toolCallId ?? '';
      turn.tools = withResult(
        turn.tools,
        {
          id,
          name: message.name,
          result: message.content,
          error: message.isError,
        },
        0,
      );
    }
  }
  finish();
  if (interrupts.length > 0) {
    const last = items.at(-1);
    const holder = last?.kind === 'assistant' ? last : { ...startTurn(''), running: false };
    holder.interrupts = mergeInterrupts(holder.interrupts, interrupts, []);
    holder.status = 'interrupted';
    if (holder !== last) items.push(holder);
  }
  return withBlockedUsers(items);
}
