import type { ChatCompletionRequest, FakeCompletion } from './fake-openai-server.ts';

/** The text of a chat completion request's last user message. */
export function lastUserText(request: ChatCompletionRequest): string {
  const last = request.body.messages.findLast((message) => message.role === 'user');
  return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content);
}

/**
 * A fake model's answer that echoes the last user message (`echo: …`), so turns can be paired
 * with their answers; the memory's summary request gets a short summary, or echoes of echoes
 * would outgrow the budget.
 */
export function echoCompletion(request: ChatCompletionRequest): FakeCompletion {
  const system = request.body.messages.find((message) => message.role === 'system');
  if (String(system?.content ?? '').includes('요약하세요')) return { kind: 'text', text: '요약' };
  return { kind: 'text', text: `echo: ${lastUserText(request)}` };
}
