import type { HistoryEntry, StateSchema } from '../../graph/index.ts';
import type { ChatMessage } from '../../models/index.ts';
import { toLangChainMessage, toLangGraphUpdate, toLangGraphValues } from './langgraph-messages.ts';
import {
  checkpointEvents,
  type LangGraphEvent,
  type Namespace,
  namedIn,
  taskEndEvents,
} from './langgraph-step-events.ts';

/**
 * The subgraph an event or stored step with `path` belongs to: the path without the inner
 * node it is about (`["research", "search"]` → `["research"]`); a step no node wrote (a
 * subgraph run's input) belongs to the whole path.
 */
export function namespaceOf(path: readonly string[], node: string | null | undefined): Namespace {
  return node === null || node === undefined ? path : path.slice(0, -1);
}

/**
 * The events of the stored steps a subgraph node ran (the steps `history` shows with a
 * `path`, just before the node's own), each named `MODE|NS1|NS2…`: per step of an inner node
 * its `updates`, the end of its task (`tasks`, `debug`), the messages it added whole
 * (`messages`), then for it and a subgraph run's input `checkpoints` (and `debug`) and the
 * subgraph's state (`values`).
 */
export function subgraphStepEvents(
  runId: string,
  threadId: string,
  steps: readonly HistoryEntry<StateSchema>[],
): LangGraphEvent[] {
  const events: LangGraphEvent[] = [];
  const previous = new Map<string, number>();
  for (const entry of steps) {
    const namespace = namespaceOf(entry.path ?? [], entry.node);
    const key = namespace.join('|');
    const ran = entry.kind === 'node' || entry.kind === 'task';
    if (!ran && entry.kind !== 'input') continue;
    const node = entry.node ?? entry.kind;
    if (ran && entry.update !== null) {
      const update = { [node]: toLangGraphUpdate(entry.update) };
      events.push({ event: namedIn('updates', namespace), data: update });
    }
    if (ran) events.push(...taskEndEvents(runId, entry, namespace));
    events.push(...checkpointEvents(threadId, entry, previous.get(key), namespace));
    previous.set(key, entry.step);
    if (ran && entry.update !== null) {
      const metadata = {
        langgraph_node: node,
        langgraph_step: entry.superstep,
        langgraph_checkpoint_ns: key,
        run_id: runId,
        thread_id: threadId,
        tags: [],
      };
      for (const message of messagesOf(entry.update)) {
        events.push({
          event: namedIn('messages', namespace),
          data: [toLangChainMessage(message), metadata],
        });
      }
    }
    events.push({ event: namedIn('values', namespace), data: toLangGraphValues(entry.values) });
  }
  return events;
}

/** The chat messages an update adds (none when it has no `messages`). */
function messagesOf(update: Record<string, unknown>): ChatMessage[] {
  const added = update.messages;
  const list = Array.isArray(added) ? added : added === undefined ? [] : [added];
  return (list as ChatMessage[]).filter((message) => 'role' in message);
}
