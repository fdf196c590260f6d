// The scripted model of the peer comparison in `npm run bench:server`: the same calculator
// turn for Yeoul, Mastra and LangGraph's Agent Server — one tool call, two model calls.
import type { ChatCompletionRequest, FakeCompletion } from '../../src/testing/internal/index.ts';

/** The user message of every turn. */
export const calculatorQuestion = '123 * 456 계산해줘';

/** The answer every server must return (the second model call's text). */
export const calculatorAnswer = '123 * 456 = 56,088입니다.';

const answerChunks = calculatorAnswer.split(/(?<=\s)/);

/**
 * Answers a request whose last message is a tool result with the final text (streamed word
 * by word when the request streams), any other with one `calculator` call.
 */
export function calculatorTurn(request: ChatCompletionRequest, index: number): FakeCompletion {
  if (request.body.messages.at(-1)?.role === 'tool')
    return { kind: 'text', text: calculatorAnswer, chunks: answerChunks };
  return {
    kind: 'tool-calls',
    calls: [{ id: `call_${index}`, name: 'calculator', arguments: '{"expression":"123 * 456"}' }],
  };
}
