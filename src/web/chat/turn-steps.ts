import type { GuardrailRecord, HistoryStep, Usage } from '../api/types.ts';
import { guardrailRecord } from './chat-items.ts';

/** The stored steps of one turn: the run its user message started, and the runs resuming it. */
export interface Turn {
  userText?: string;
  userMessageId?: string;
  runIds: string[];
  steps: HistoryStep[];
}

/** One line of the inspector: a node, when it ended, how long it took, what it changed. */
export interface InspectorRow {
  /** The node that ran, or null for the other entries (input, interrupt, resume, end). */
  node: string | null;
  /** What the entry was: `node`, `task` (one of a super-step's parallel tasks), `input`, … */
  kind: string;
  runId: string;
  /** The run's super-step, when the server says it: tasks that ran together share it. */
  superstep?: number;
  at: number;
  durationMs: number;
  usage?: Usage;
  update: Record<string, unknown> | null;
}

/**
 * Groups a session's history into turns: a run whose input holds a user message starts a
 * turn; a run without one (an approval resuming the run) belongs to the turn before.
 */
export function groupTurns(steps: HistoryStep[]): Turn[] {
  const turns: Turn[] = [];
  let runId: string | undefined;
  // A subgraph's own steps (with a `path`) are details of the node step that follows them,
  // on a run of their own: they neither start a turn nor count as a fork point.
  for (const step of steps.filter((candidate) => !candidate.path?.length)) {
    if (step.runId !== runId) {
      runId = step.runId;
      const user = userMessageOf(step.update);
      const current = turns.at(-1);
      if (user || !current) {
        turns.push({
          ...(user ? { userText: user.content } : {}),
          ...(user?.id ? { userMessageId: user.id } : {}),
          runIds: [runId],
          steps: [],
        });
      } else current.runIds.push(runId);
    }
    turns.at(-1)?.steps.push(step);
  }
  // A history that does not show the runs' input: one turn per run is the best guess.
  if (turns.length === 1 && !turns[0]?.userText && (turns[0]?.runIds.length ?? 0) > 1) {
    return (turns[0] as Turn).runIds.map((id) => ({
      runIds: [id],
      steps: steps.filter((step) => step.runId === id),
    }));
  }
  return turns;
}

/**
 * The turn of the history that answers a console turn: by the user message's id, else by
 * its text (the latest such turn), else the turn counted from the end.
 */
export function findTurn(
  turns: Turn[],
  wanted: { userMessageId?: string; userText?: string; fromEnd: number },
): Turn | undefined {
  if (wanted.userMessageId) {
    const byId = turns.find((turn) => turn.userMessageId === wanted.userMessageId);
    if (byId) return byId;
  }
  if (wanted.userText) {
    const byText = turns.findLast((turn) => turn.userText === wanted.userText);
    if (byText) return byText;
  }
  return turns[turns.length - 1 - wanted.fromEnd];
}

/** The inspector's rows of a turn: each step's time since the one before and its usage delta. */
export function inspectorRows(turn: Turn): InspectorRow[] {
  const rows: InspectorRow[] = [];
  let previousAt: number | undefined;
  let previousUsage: Usage | undefined;
  let runId: string | undefined;
  for (const step of turn.steps) {
    const at = typeof step.at === 'number' ? step.at : Date.parse(step.at);
    if (step.runId !== runId) {
      runId = step.runId;
      previousUsage = undefined;
    }
    const usage = usageOf(step.update);
    const delta =
      usage && previousUsage
        ? {
            llmCalls: usage.llmCalls - previousUsage.llmCalls,
            inputTokens: usage.inputTokens - previousUsage.inputTokens,
            outputTokens: usage.outputTokens - previousUsage.outputTokens,
          }
        : usage;
    if (usage) previousUsage = usage;
    const kind = step.kind ?? (step.node === null ? 'input' : 'node');
    rows.push({
      node: kind === 'node' || kind === 'task' ? step.node : null,
      kind,
      runId: step.runId,
      ...(step.superstep === undefined ? {} : { superstep: step.superstep }),
      at,
      durationMs: previousAt === undefined ? 0 : Math.max(0, at - previousAt),
      ...(delta ? { usage: delta } : {}),
      update: step.update,
    });
    previousAt = at;
  }
  return rows;
}

/**
 * Items in lines: consecutive items with the same key (not null) share a line; an item
 * without a key is a line of its own. How the inspector puts a super-step's tasks side by side.
 */
export function lines<Item>(items: Item[], keyOf: (item: Item) => string | null): Item[][] {
  const result: Item[][] = [];
  let lastKey: string | null = null;
  for (const item of items) {
    const key = keyOf(item);
    const line = result.at(-1);
    if (line && key !== null && key === lastKey) line.push(item);
    else result.push([item]);
    lastKey = key;
  }
  return result;
}

/**
 * The inspector's rows in lines: the tasks of one super-step (its `task` entries and the
 * `node` entry that completed it) share a line, each timed from the super-step's start;
 * every other row is a line of its own.
 */
export function superstepLines(rows: InspectorRow[]): InspectorRow[][] {
  return lines(rows, (row) =>
    row.node !== null && row.superstep !== undefined ? `${row.runId} ${row.superstep}` : null,
  ).map((line) => {
    let elapsed = 0;
    return line.map((row) => {
      elapsed += row.durationMs;
      return { ...row, durationMs: elapsed };
    });
  });
}

/**
 * The step to fork at to ask a user message again: the one just before the input of the
 * run it started (-1 for a session's first message). The message is found by its id, else
 * by its place among the user messages counted from the end (when its text agrees), else
 * by its text; undefined when the history does not hold it (or does not number its steps).
 */
export function forkPointBefore(
  steps: HistoryStep[],
  wanted: { userMessageId?: string; userText: string; fromEnd: number },
): number | undefined {
  const asked = groupTurns(steps).filter((turn) => turn.userText !== undefined);
  const counted = asked[asked.length - 1 - wanted.fromEnd];
  const turn =
    (wanted.userMessageId
      ? asked.find((candidate) => candidate.userMessageId === wanted.userMessageId)
      : undefined) ??
    (counted?.userText === wanted.userText ? counted : undefined) ??
    asked.findLast((candidate) => candidate.userText === wanted.userText);
  const input = turn?.steps[0]?.step;
  return input === undefined ? undefined : input - 1;
}

/** The run's total usage: the last usage any step of the turn's runs reported, summed per run. */
export function turnUsage(turn: Turn): Usage | undefined {
  const lastByRun = new Map<string, Usage>();
  for (const step of turn.steps) {
    const usage = usageOf(step.update);
    if (usage) lastByRun.set(step.runId, usage);
  }
  if (lastByRun.size === 0) return undefined;
  const total = { llmCalls: 0, inputTokens: 0, outputTokens: 0 };
  for (const usage of lastByRun.values()) {
    total.llmCalls += usage.llmCalls;
    total.inputTokens += usage.inputTokens;
    total.outputTokens += usage.outputTokens;
  }
  return total;
}

/** What each guardrail that acted did, as a `guardrail` step's update lists it. */
export function guardrailsOf(update: Record<string, unknown> | null): GuardrailRecord[] {
  const list = update?.guardrails;
  return Array.isArray(list) ? list.map(guardrailRecord) : [];
}

function usageOf(update: Record<string, unknown> | null): Usage | undefined {
  const usage = update?.usage as Partial<Usage> | undefined;
  if (!usage || typeof usage.llmCalls !== 'number') return undefined;
  return {
    llmCalls: usage.llmCalls,
    inputTokens: usage.inputTokens ?? 0,
    outputTokens: usage.outputTokens ?? 0,
  };
}

function userMessageOf(
  update: Record<string, unknown> | null,
): { id?: string; content: string } | undefined {
  const messages = update?.messages;
  const list = Array.isArray(messages) ? messages : messages ? [messages] : [];
  const user = list.find(
    (message): message is { id?: string; role: string; content: string } =>
      typeof message === 'object' && message !== null && message.role === 'user',
  );
  return user ? { ...(user.id ? { id: user.id } : {}), content: String(user.content) } : undefined;
}
