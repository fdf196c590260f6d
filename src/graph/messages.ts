import { createId } from '../core/index.ts';
import type { Channel } from './channels.ts';

/** The least a message needs for the messages channel: an optional id. */
export interface MessageLike {
  id?: string;
}

/** An update entry that removes the message with `id` (or all messages for `*`). */
export interface RemoveMessage {
  type: 'remove';
  id: string;
}

/** What the messages channel accepts: one entry or a list of them. */
export type MessagesUpdate<Message extends MessageLike> =
  | Message
  | RemoveMessage
  | Array<Message | RemoveMessage>;

const removeAllId = '*';

/**
 * Messages that `prepare` just gave a new random id: they cannot replace an existing
 * message, so `reduce` appends them without searching the list (which would make every
 * append cost more as a conversation grows). Replayed updates are not in here and are
 * searched as usual.
 */
const freshlyIdentified = new WeakSet<object>();

/** An update entry that removes the message with this id. */
export function removeMessage(id: string): RemoveMessage {
  return { type: 'remove', id };
}

/** An update entry that removes every message before the ones after it in the same update. */
export function removeAllMessages(): RemoveMessage {
  return { type: 'remove', id: removeAllId };
}

function isRemoval(entry: MessageLike | RemoveMessage): entry is RemoveMessage {
  return (entry as RemoveMessage).type === 'remove';
}

/**
 * The conversation channel: appends messages, replaces a message whose id is
 * already present, and removes messages by id. Messages without an id get one
 * before the update is committed, so a replayed update yields the same ids.
 */
export function messages<Message extends MessageLike>(): Channel<
  Message[],
  MessagesUpdate<Message>
> {
  return {
    kind: 'messages',
    initial: () => [],
    prepare(update) {
      const entries = Array.isArray(update) ? update : [update];
      return entries.map((entry) => {
        if (isRemoval(entry) || entry.id !== undefined) return entry;
        const identified = { ...entry, id: createId() };
        freshlyIdentified.add(identified);
        return identified;
      });
    },
    reduce(current, update) {
      const entries = Array.isArray(update) ? update : [update];
      let result: Message[] | undefined;
      for (const entry of entries) {
        const list: Message[] = result ?? current;
        if (isRemoval(entry)) {
          result =
            entry.id === removeAllId ? [] : list.filter((message) => message.id !== entry.id);
          continue;
        }
        const existing =
          entry.id === undefined || freshlyIdentified.has(entry) ? -1 : indexOfId(list, entry.id);
        // Every array `result` points at was made here, so it may be changed in place.
        if (result === undefined) result = current.slice();
        if (existing === -1) result.push(entry);
        else result[existing] = entry;
      }
      return result ?? current;
    },
  };
}

function indexOfId(list: readonly MessageLike[], id: string): number {
  for (let index = list.length - 1; index >= 0; index -= 1) {
    if ((list[index] as MessageLike).id === id) return index;
  }
  return -1;
}
