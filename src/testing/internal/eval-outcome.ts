import type { EvalItem, EvalToolCall, ItemOutcome } from '../../evals/index.ts';

/**
 * An item's outcome for scorer tests: one turn per input, the last answer `response`,
 * tool calls with their results (a `query_logs` result is given as its JSON object).
 */
export function evalOutcome(
  fields: Partial<Omit<EvalItem, 'input'>> & {
    input?: string | string[];
    response?: string;
    responses?: string[];
    toolCalls?: Array<Partial<Omit<EvalToolCall, 'result'>> & { name: string; result: unknown }>;
    sources?: string[];
    context?: string;
    latencyMs?: number;
    tokens?: { input: number; output: number };
  },
): ItemOutcome {
  const {
    input = 'question',
    response = '',
    responses,
    toolCalls = [],
    sources = [],
    context = '',
    latencyMs = 10,
    tokens = { input: 0, output: 0 },
    ...item
  } = fields;
  const inputs = typeof input === 'string' ? [input] : input;
  const answers =
    responses ?? inputs.map((_, index) => (index === inputs.length - 1 ? response : ''));
  return {
    item: { id: item.id ?? 'item', input: inputs, ...item },
    sessionId: 'eval-session',
    turns: inputs.map((message, index) => ({
      input: message,
      response: answers[index] ?? '',
      status: 'published',
    })),
    response: answers.at(-1) ?? '',
    toolCalls: toolCalls.map((call) => ({
      name: call.name,
      args: call.args ?? {},
      result: typeof call.result === 'string' ? call.result : JSON.stringify(call.result),
      error: call.error ?? false,
    })),
    sources: sources.map((documentId) => ({
      documentId,
      chunkId: `${documentId}#0`,
      title: documentId,
    })),
    context,
    usage: { llmCalls: 1, inputTokens: tokens.input, outputTokens: tokens.output },
    latencyMs,
  };
}
