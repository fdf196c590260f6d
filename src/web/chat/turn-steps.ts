import type { HistoryStep, Usage } from '../api/types.ts';

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
  /** What the entry was: `node`, `input`, `interrupt`, `resume` or `end`. */
  kind: string;
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
  for (const step of steps) {
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
      node: kind === 'node' ? step.node : null,
      kind,
      at,
      durationMs: previousAt === undefined ? 0 : Math.max(0, at - previousAt),
      ...(delta ? { usage: delta } : {}),
      update: step.update,
    });
    previousAt = at;
  }
  return rows;
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
