import type {
  DonePayload,
  ErrorInfo,
  Evaluation,
  GuardrailBlock,
  GuardrailRecord,
  Interrupt,
  Source,
  Usage,
} from '../api/types.ts';

/** A tool call as a card: what was asked, what came back, how long it took. */
export interface ToolCardData {
  id: string;
  name: string;
  args: unknown;
  result?: string;
  error?: boolean;
  durationMs?: number;
  startedAt?: number;
}

/** A node of the running turn, as the stream's `step` events report it. */
export interface LiveStep {
  node: string;
  startedAt: number;
  endedAt?: number;
  /** The graph run and super-step it ran in (nodes that ran together share it), when sent. */
  superstep?: string;
}

/** A decision already sent for an interrupt. */
export interface Decision {
  id: string;
  tool: string;
  approve: boolean;
  reason?: string;
  /** Sent to the server (decisions of one pause go together). */
  sent?: boolean;
}

export interface UserItem {
  kind: 'user';
  key: string;
  text: string;
  messageId?: string;
  /** Refused by the server before anything was stored: shown shortened, not editable. */
  unsent?: boolean;
  /** Its turn was blocked by a guardrail: kept, but never sent to a model again. */
  blocked?: boolean;
}

/** The agent's side of one turn: tool cards, the answer, and what the run reported. */
export interface AssistantItem {
  kind: 'assistant';
  key: string;
  /** The user message this turn answers (to find the turn's steps in the history). */
  userText: string;
  userMessageId?: string;
  text: string;
  tools: ToolCardData[];
  interrupts: Interrupt[];
  decisions: Decision[];
  errors: ErrorInfo[];
  /** What each guardrail that acted did, in order (the stream's `guardrail` events). */
  guardrails: GuardrailRecord[];
  /** The guardrail that blocked the turn or its answer (status `blocked`), when the run said. */
  guardrail?: GuardrailBlock;
  liveSteps: LiveStep[];
  running: boolean;
  status?: DonePayload['status'];
  sources?: Source[];
  evaluation?: Evaluation;
  usage?: Usage;
  executionTime?: number;
  /** The server refused the request, so no run was stored: nothing to rate, inspect or redo. */
  unsent?: boolean;
}

export type ChatItem = UserItem | AssistantItem;

let counter = 0;
/** A key for list rendering, unique within the page. */
export const itemKey = (prefix: string) => `${prefix}-${++counter}`;

/** A fresh assistant item for a turn that is about to run. */
export function startTurn(userText: string, userMessageId?: string): AssistantItem {
  return {
    kind: 'assistant',
    key: itemKey('assistant'),
    userText,
    ...(userMessageId ? { userMessageId } : {}),
    text: '',
    tools: [],
    interrupts: [],
    decisions: [],
    errors: [],
    guardrails: [],
    liveSteps: [],
    running: true,
  };
}

/**
 * Applies one stream event to the turn it belongs to, returning a new item (the old one
 * is left as it was, for Preact). Unknown events change nothing.
 */
export function applyEvent(
  item: AssistantItem,
  event: string,
  data: unknown,
  now: number,
): AssistantItem {
  const value = (data ?? {}) as Record<string, unknown>;
  switch (event) {
    case 'token':
      return { ...item, text: item.text + String(value.text ?? '') };
    case 'step':
      return applyStep(
        item,
        String(value.node ?? ''),
        value.phase === 'end' ? 'end' : 'start',
        now,
        typeof value.superstep === 'number' ? `${value.runId ?? ''} ${value.superstep}` : undefined,
      );
    case 'tool-call': {
      const id = String(value.id ?? '');
      const card = { id, name: String(value.name ?? ''), args: value.args, startedAt: now };
      const known = item.tools.some((tool) => tool.id === id);
      return {
        ...item,
        tools: known
          ? item.tools.map((tool) => (tool.id === id ? { ...tool, ...card } : tool))
          : [...item.tools, card],
      };
    }
    case 'tool-result':
      return { ...item, tools: withResult(item.tools, value, now) };
    case 'interrupt': {
      const interrupt = value as unknown as Interrupt;
      return { ...item, interrupts: mergeInterrupts(item.interrupts, [interrupt], item.decisions) };
    }
    case 'guardrail': {
      const record = guardrailRecord(value);
      // An answer blocked while it streamed: what was shown of it goes (the refusal follows).
      const stopped = record.stage === 'output' && record.action === 'block';
      return {
        ...item,
        ...(stopped ? { text: '' } : {}),
        guardrails: [...item.guardrails, record],
      };
    }
    case 'evaluation':
      return { ...item, evaluation: value as unknown as Evaluation };
    case 'error':
      return { ...item, errors: [...item.errors, errorInfo(value)] };
    case 'done':
      return applyDone(item, value as unknown as DonePayload);
    default:
      return item;
  }
}

function applyStep(
  item: AssistantItem,
  node: string,
  phase: 'start' | 'end',
  now: number,
  superstep: string | undefined,
): AssistantItem {
  if (phase === 'start') {
    // The ops loop answers again after `regenerate`: the new answer replaces the old one.
    const text = node === 'regenerate' ? '' : item.text;
    const step = { node, startedAt: now, ...(superstep ? { superstep } : {}) };
    return { ...item, text, liveSteps: [...item.liveSteps, step] };
  }
  const steps = [...item.liveSteps];
  for (let index = steps.length - 1; index >= 0; index -= 1) {
    const step = steps[index];
    if (
      step &&
      step.node === node &&
      step.endedAt === undefined &&
      (superstep === undefined || step.superstep === undefined || step.superstep === superstep)
    ) {
      steps[index] = { ...step, endedAt: now };
      break;
    }
  }
  return { ...item, liveSteps: steps };
}

/** The tool cards with a `tool-result` (event or stored message) filled in, timed at `now`. */
export function withResult(
  tools: ToolCardData[],
  value: Record<string, unknown>,
  now: number,
): ToolCardData[] {
  const id = String(value.id ?? '');
  const result = typeof value.result === 'string' ? value.result : JSON.stringify(value.result);
  const known = tools.some((tool) => tool.id === id);
  const base = known
    ? tools
    : [...tools, { id, name: String(value.name ?? ''), args: undefined } as ToolCardData];
  return base.map((tool) => {
    if (tool.id !== id) return tool;
    const measured = tool.startedAt === undefined ? undefined : now - tool.startedAt;
    const durationMs = typeof value.durationMs === 'number' ? value.durationMs : measured;
    return {
      ...tool,
      result,
      error: Boolean(value.error),
      ...(durationMs === undefined ? {} : { durationMs }),
    };
  });
}

function applyDone(item: AssistantItem, payload: DonePayload): AssistantItem {
  const errors = [...item.errors];
  if (payload.status === 'error' && payload.errorCode) {
    if (!errors.some((error) => error.code === payload.errorCode))
      errors.push({ code: payload.errorCode, message: payload.response });
  }
  const blocked = payload.status === 'blocked';
  return {
    ...item,
    // The payload's answer is the final word (the ops loop may have replaced the streamed one;
    // a guardrail may have replaced it by a refusal).
    text: blocked ? payload.response : payload.response || item.text,
    running: false,
    status: payload.status,
    errors,
    // The events are the record; the payload's list stands in when none came (one per run).
    guardrails:
      item.guardrails.length === 0 && payload.guardrails?.length
        ? payload.guardrails.map(guardrailRecord)
        : item.guardrails,
    ...(blocked && payload.guardrail ? { guardrail: payload.guardrail } : {}),
    interrupts:
      payload.status === 'interrupted'
        ? mergeInterrupts(item.interrupts, payload.interrupts ?? [], item.decisions)
        : item.interrupts,
    ...(payload.sources?.length ? { sources: payload.sources } : {}),
    ...(payload.evaluation ? { evaluation: payload.evaluation } : {}),
    ...(payload.usage ? { usage: payload.usage } : {}),
    executionTime: payload.executionTime,
  };
}

/** Pending interrupts plus new ones, each once, none that was already decided. */
export function mergeInterrupts(
  pending: Interrupt[],
  incoming: Interrupt[],
  decisions: Decision[],
): Interrupt[] {
  const merged = [...pending];
  for (const interrupt of incoming) {
    if (!interrupt?.id || merged.some((known) => known.id === interrupt.id)) continue;
    if (decisions.some((decision) => decision.id === interrupt.id)) continue;
    merged.push(interrupt);
  }
  return merged;
}

/** A guardrail record (`{name, stage, action, reason, tool?}`) read defensively. */
export function guardrailRecord(value: unknown): GuardrailRecord {
  const record = (value ?? {}) as Partial<Record<keyof GuardrailRecord, unknown>>;
  const stage = record.stage === 'output' || record.stage === 'tools' ? record.stage : 'input';
  const action = record.action === 'redact' || record.action === 'warn' ? record.action : 'block';
  return {
    name: String(record.name ?? ''),
    stage,
    action,
    reason: String(record.reason ?? ''),
    ...(typeof record.tool === 'string' ? { tool: record.tool } : {}),
  };
}

/**
 * The items with the user message of each blocked turn marked `blocked` (the same array
 * when none changes, so Preact re-renders nothing for it).
 */
export function withBlockedUsers(items: ChatItem[]): ChatItem[] {
  let changed = false;
  const next = items.map((item, index) => {
    const answer = items[index + 1];
    if (item.kind !== 'user' || item.blocked) return item;
    if (answer?.kind !== 'assistant' || answer.status !== 'blocked') return item;
    changed = true;
    return { ...item, blocked: true };
  });
  return changed ? next : items;
}

/** An error payload (`{code, message}`) read defensively. */
export function errorInfo(value: unknown): ErrorInfo {
  const record = (value ?? {}) as Partial<ErrorInfo>;
  return { code: String(record.code ?? 'unknown_error'), message: String(record.message ?? '') };
}
