import type { PendingInterrupt } from '../../graph/index.ts';
import type { ChatMessage } from '../../models/index.ts';
import { invalidInput } from './langgraph-fields.ts';

/** A message as LangChain's clients read it (`type` instead of `role`, snake_case fields). */
export type LangChainMessage = Record<string, unknown> & { type: string; id?: string };

/** A message of a session's state as LangChain shows it: the same id, content and order. */
export function toLangChainMessage(message: ChatMessage): LangChainMessage {
  const base = { id: message.id, content: message.content };
  switch (message.role) {
    case 'user':
      return { type: 'human', ...base };
    case 'system':
      return { type: 'system', ...base };
    case 'tool':
      return {
        type: 'tool',
        ...base,
        tool_call_id: message.toolCallId,
        name: message.name,
        status: message.isError ? 'error' : 'success',
      };
    default:
      return {
        type: 'ai',
        ...base,
        tool_calls: (message.toolCalls ?? []).map((call) => ({
          id: call.id,
          name: call.name,
          args: call.args,
          type: 'tool_call',
        })),
      };
  }
}

/** A state's channels as LangGraph shows them: `messages` in LangChain's shape. */
export function toLangGraphValues(values: unknown): Record<string, unknown> {
  if (typeof values !== 'object' || values === null) return {};
  const record = values as Record<string, unknown>;
  if (!Array.isArray(record.messages)) return { ...record };
  return { ...record, messages: (record.messages as ChatMessage[]).map(toLangChainMessage) };
}

/** A node's update as LangGraph shows it: new messages in LangChain's shape. */
export function toLangGraphUpdate(update: unknown): unknown {
  if (typeof update !== 'object' || update === null || !('messages' in update)) return update;
  const messages = (update as { messages: unknown }).messages;
  const list = Array.isArray(messages) ? messages : [messages];
  return {
    ...update,
    messages: (list as ChatMessage[]).map((message) =>
      'role' in message ? toLangChainMessage(message) : message,
    ),
  };
}

/** An interrupt as LangGraph shows it: its id and the question's value. */
export interface LangGraphInterrupt {
  id: string;
  value: unknown;
}

/** A pending approval as LangChain's human-in-the-loop interrupt (its `id` the approval's). */
export function toLangGraphInterrupt(pending: PendingInterrupt): LangGraphInterrupt {
  const request = pending.value as { tool?: string; args?: unknown };
  const tool = request.tool ?? 'unknown';
  return {
    id: pending.id,
    value: {
      action_requests: [
        { name: tool, args: request.args ?? {}, description: `Yeoul asks to run ${tool}` },
      ],
      review_configs: [{ action_name: tool, allowed_decisions: ['approve', 'reject'] }],
    },
  };
}

/**
 * The new user message of a chat graph's `input: {messages}`: the messages whose id the thread
 * has are skipped; what remains must be one human message (`type: "human"` or `role: "user"`,
 * `content` a string or text parts; a given `id` becomes its id) — else 422 naming
 * `input.messages`.
 */
export function messageOfInput(
  input: unknown,
  knownIds: ReadonlySet<string>,
): { text: string; id?: string } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalidInput('input', 'a chat graph takes {messages: [...]}');
  }
  const { messages } = input as { messages?: unknown };
  if (!Array.isArray(messages)) throw invalidInput('input.messages', 'an array of messages');
  const fresh = messages.filter(
    (message) =>
      !(
        typeof message === 'object' &&
        message !== null &&
        typeof (message as { id?: unknown }).id === 'string' &&
        knownIds.has((message as { id: string }).id)
      ),
  );
  const only = fresh.length === 1 ? (fresh[0] as Record<string, unknown>) : undefined;
  const human = only !== undefined && (only.type === 'human' || only.role === 'user');
  const text = human ? textOf(only.content) : undefined;
  if (text === undefined || text.trim() === '') {
    throw invalidInput(
      'input.messages',
      'one new human message (type "human" or role "user") with text content',
    );
  }
  const id = only?.id;
  if (id === undefined || id === null) return { text };
  if (typeof id !== 'string' || !/^[A-Za-z0-9_.:-]{1,128}$/.test(id)) {
    throw invalidInput('input.messages', 'a message id is 1–128 letters, digits and _ . : -');
  }
  return { text, id };
}

function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content.map((part) =>
    typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'text'
      ? (part as { text?: unknown }).text
      : undefined,
  );
  return parts.every((part) => typeof part === 'string') ? parts.join('') : undefined;
}

/** A LangChain message of a state update as Yeoul's message (its id kept: it replaces that message). */
export function fromLangChainMessage(message: unknown, field: string): ChatMessage {
  const record = (typeof message === 'object' && message !== null ? message : {}) as Record<
    string,
    unknown
  >;
  const content = textOf(record.content);
  const role = roleOf(record.type ?? record.role);
  if (content === undefined || role === undefined) {
    throw invalidInput(field, 'a message with a type (human, ai, tool, system) and text content');
  }
  const id = typeof record.id === 'string' ? { id: record.id } : {};
  if (role === 'tool') {
    if (typeof record.tool_call_id !== 'string')
      throw invalidInput(field, 'a tool message names its tool_call_id');
    return {
      ...id,
      role,
      content,
      toolCallId: record.tool_call_id,
      ...(typeof record.name === 'string' ? { name: record.name } : {}),
      ...(record.status === 'error' ? { isError: true } : {}),
    };
  }
  const calls = Array.isArray(record.tool_calls)
    ? (record.tool_calls as Array<Record<string, unknown>>)
    : [];
  const toolCalls = calls.map((call) => ({
    id: String(call.id ?? ''),
    name: String(call.name ?? ''),
    args: call.args ?? {},
  }));
  return {
    ...id,
    role,
    content,
    ...(role === 'assistant' && toolCalls.length > 0 ? { toolCalls } : {}),
  };
}

function roleOf(type: unknown): ChatMessage['role'] | undefined {
  switch (type) {
    case 'human':
    case 'user':
      return 'user';
    case 'ai':
    case 'assistant':
      return 'assistant';
    case 'tool':
      return 'tool';
    case 'system':
      return 'system';
    default:
      return undefined;
  }
}
