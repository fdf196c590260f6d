import type { ApprovalDecision, ClientToolOutput } from '../../agents/index.ts';
import type { ChatMessage, ModelTool } from '../../models/index.ts';
import { HttpError } from '../http/http-error.ts';
import { type AgUiMessage, type RunAgentInput, textOf } from './run-agent-input.ts';

/** A call the session's paused run waits on, as its interrupt says. */
export interface WaitingCall {
  /** The interrupt's id (what `resume` names). */
  id: string;
  type: 'tool-approval' | 'client-tool';
  tool: string;
  args: unknown;
  /** The model's id for the call (what the session's messages show). */
  toolCallId: string;
}

/** What the session holds, as far as a new input is read against it. */
export interface SessionView {
  /** False when Yeoul has no state for the thread yet. */
  exists: boolean;
  messages: ChatMessage[];
  waiting: WaitingCall[];
}

/** What one AG-UI run asks of the agent. */
export interface AgUiTurn {
  /** The new user message, with its id (absent when the run continues a paused one). */
  message?: { id: string; text: string };
  /** A new session's earlier messages. */
  history: ChatMessage[];
  decisions: ApprovalDecision[];
  /** Results of the client's tools, by the interrupt's id. */
  outputs: ClientToolOutput[];
  /** The model's ids of the calls whose results the client brought. */
  answeredCalls: Set<string>;
  /** The paused run's client-tool calls a new user message closes. */
  closesClientCalls: boolean;
  clientTools: ModelTool[];
  /** `context` entries and the system and developer messages of this run. */
  instructions?: string;
}

/**
 * Reads an input against its session: messages the session has (by id; tool results by the
 * call they answer) are skipped; what remains is one user message (a new turn; on a new
 * session the messages before it are its history) or the results of the client-tool calls
 * the session waits for; `resume` decides its approvals.
 */
export function agUiTurnOf(input: RunAgentInput, session: SessionView): AgUiTurn {
  const knownIds = new Set(session.messages.flatMap((entry) => (entry.id ? [entry.id] : [])));
  const answered = new Set(
    session.messages.flatMap((entry) =>
      entry.role === 'tool' && entry.toolCallId ? [entry.toolCallId] : [],
    ),
  );
  const remaining = input.messages
    .map((entry, index) => ({ entry, index }))
    .filter(
      ({ entry }) =>
        !knownIds.has(entry.id) && !(entry.role === 'tool' && answered.has(entry.toolCallId)),
    );
  const instructions = (input.context ?? []).map((entry) => `${entry.description}: ${entry.value}`);
  const base = {
    decisions: decisionsOf(input),
    outputs: [] as ClientToolOutput[],
    answeredCalls: new Set<string>(),
    closesClientCalls: false,
    clientTools: (input.tools ?? []).map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.parameters ?? { type: 'object', properties: {} },
    })),
  };
  const lastUser = remaining.findLastIndex(({ entry }) => entry.role === 'user');
  if (!session.exists) {
    if (lastUser === -1) throw invalid('messages', 'a new thread starts with a user message');
    const after = remaining.slice(lastUser + 1);
    if (after.length > 0) {
      throw invalid(`messages[${after[0]?.index}]`, 'the last message must be the user’s');
    }
    const user = remaining[lastUser]?.entry as AgUiMessage;
    return {
      ...base,
      ...withInstructions(instructions),
      message: { id: user.id, text: textOf(user.content) },
      history: remaining.slice(0, lastUser).map(({ entry }) => chatMessageOf(entry)),
    };
  }
  const turn: AgUiTurn = { ...base, history: [] };
  for (const { entry, index } of remaining) {
    if (entry.role === 'system' || entry.role === 'developer') {
      instructions.push(entry.content);
    } else if (entry.role === 'user') {
      if (turn.message !== undefined) {
        throw invalid(`messages[${index}]`, 'one new user message per run');
      }
      turn.message = { id: entry.id, text: textOf(entry.content) };
    } else if (entry.role === 'tool') {
      const call = session.waiting.find(
        (waiting) => waiting.type === 'client-tool' && waiting.toolCallId === entry.toolCallId,
      );
      if (call === undefined) {
        throw invalid(
          `messages[${index}]`,
          `the thread waits for no client tool call "${entry.toolCallId}"`,
        );
      }
      const output = entry.error ? `Error: ${entry.error}` : textOf(entry.content);
      turn.outputs.push({ id: call.id, output });
      turn.answeredCalls.add(call.toolCallId);
    } else {
      throw invalid(
        `messages[${index}]`,
        'the thread does not have this assistant message: send only the new user message or tool results',
      );
    }
  }
  if (turn.message !== undefined && (turn.outputs.length > 0 || turn.decisions.length > 0)) {
    throw invalid('messages', 'a new user message goes without tool results or resume');
  }
  if (turn.message !== undefined && session.waiting.length > 0) {
    // Waiting only for the client's own tools: the new message closes them.
    turn.closesClientCalls = session.waiting.every((waiting) => waiting.type === 'client-tool');
  }
  if (turn.message === undefined && turn.outputs.length === 0 && turn.decisions.length === 0) {
    throw invalid('messages', 'nothing new: send a user message, tool results or resume');
  }
  return { ...turn, ...withInstructions(instructions) };
}

/** `resume` entries as decisions: `resolved` with `payload.approved`, `cancelled` denies. */
function decisionsOf(input: RunAgentInput): ApprovalDecision[] {
  return (input.resume ?? []).map((entry, index) => {
    const reason = entry.payload?.reason;
    if (entry.status === 'cancelled') {
      return { id: entry.interruptId, approve: false, ...(reason ? { reason } : {}) };
    }
    const approved = entry.payload?.approved;
    if (approved === undefined) {
      throw invalid(`resume[${index}].payload.approved`, 'a resolved approval says approved');
    }
    return { id: entry.interruptId, approve: approved, ...(reason ? { reason } : {}) };
  });
}

/** An AG-UI message of a new thread's history in Yeoul's shape (its id kept). */
function chatMessageOf(entry: AgUiMessage): ChatMessage {
  switch (entry.role) {
    case 'assistant':
      return {
        id: entry.id,
        role: 'assistant',
        content: entry.content ?? '',
        ...(entry.toolCalls?.length
          ? {
              toolCalls: entry.toolCalls.map((call) => ({
                id: call.id,
                name: call.function.name,
                args: parseArgs(call.function.arguments),
              })),
            }
          : {}),
      };
    case 'tool':
      return {
        id: entry.id,
        role: 'tool',
        toolCallId: entry.toolCallId,
        content: entry.error ? `Error: ${entry.error}` : textOf(entry.content),
        ...(entry.error ? { isError: true } : {}),
      };
    case 'user':
      return { id: entry.id, role: 'user', content: textOf(entry.content) };
    default:
      return { id: entry.id, role: 'system', content: entry.content };
  }
}

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function withInstructions(lines: string[]): { instructions?: string } {
  return lines.length > 0 ? { instructions: lines.join('\n') } : {};
}

function invalid(field: string, message: string): HttpError {
  return new HttpError({
    status: 422,
    code: 'invalid_request',
    message: `${field}: ${message}`,
    details: { fields: [field] },
  });
}
