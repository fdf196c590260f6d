import {
  type Checkpointer,
  type CompileOptions,
  defineState,
  END,
  messages,
  replace,
  START,
  StateGraph,
  type StateOf,
} from '../../graph/index.ts';

/** A chat message as the chat-shaped fixture graph stores it. */
export interface FixtureMessage {
  id?: string;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  toolCalls?: Array<{ id: string; name: string; args: Record<string, unknown> }>;
  toolCallId?: string;
}

/** The state of the chat-shaped fixture graph. */
export const chatFixtureSchema = defineState({
  messages: messages<FixtureMessage>(),
  route: replace<string | null>(null),
  summary: replace<string>(''),
});

export type ChatFixtureState = StateOf<typeof chatFixtureSchema>;

/**
 * The chat-shaped graph of bench/README.md (router → memory → agent ⇄ tools) with a
 * zero-latency fake model: a user message gets a calculator tool call, a tool result
 * gets the answer. One invoke is a tool turn of 5 node executions adding 4 messages.
 */
export function buildChatFixtureGraph(
  options: CompileOptions & { checkpointer?: Checkpointer } = {},
) {
  return new StateGraph(chatFixtureSchema)
    .addNode('router', (state) => {
      const last = state.messages.at(-1);
      return { route: last?.role === 'user' ? 'agent' : 'agent' };
    })
    .addNode('memory', (state) => (state.messages.length > 10_000 ? { summary: '…' } : undefined))
    .addNode('agent', (state, context) => {
      const last = state.messages.at(-1);
      if (last?.role === 'user') {
        return {
          messages: {
            role: 'assistant',
            content: '',
            toolCalls: [
              {
                id: `call-${context.runId}`,
                name: 'calculator',
                args: { expression: '123 * 456' },
              },
            ],
          },
        };
      }
      return { messages: { role: 'assistant', content: '123 * 456 = 56,088입니다.' } };
    })
    .addNode('tools', (state) => {
      const last = state.messages.at(-1);
      return {
        messages: (last?.toolCalls ?? []).map((call) => ({
          role: 'tool' as const,
          content: '56088',
          toolCallId: call.id,
        })),
      };
    })
    .addEdge(START, 'router')
    .addEdge('router', 'memory')
    .addEdge('memory', 'agent')
    .addConditionalEdges(
      'agent',
      (state) => ((state.messages.at(-1)?.toolCalls?.length ?? 0) > 0 ? 'tools' : END),
      ['tools', END],
    )
    .addEdge('tools', 'agent')
    .compile(options);
}

/** The user message of turn `turn`, as the benchmark sends it. */
export function chatFixtureInput(turn: number): { messages: FixtureMessage } {
  return {
    messages: {
      role: 'user',
      content: `What is 123 * 456? Please calculate it for me (turn ${turn})`,
    },
  };
}
