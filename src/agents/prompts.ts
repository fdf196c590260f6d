import { formatSummaryForPrompt } from './memory/summary-window.ts';

/** The seed's persona: the first paragraph of every agent system prompt. */
export const defaultPersona = '당신은 도움이 되는 AI 어시스턴트입니다.';

/** The summariser's instructions (the memory node's LLM call). */
export const summarizerPrompt =
  '다음 대화를 요약하세요. 사용자의 이름, 날짜, 숫자, 결정된 사항처럼 나중에 다시 필요할 사실은 빠짐없이 남기고, ' +
  '3~5문장으로 간결하게 쓰세요. Summarize the conversation below; keep names, dates, numbers and decisions.';

/** The router's instructions, for the cases heuristics leave open (seed 004 ROUTER_PROMPT). */
export const routerPrompt = [
  '사용자의 질문을 어디로 보낼지 고르세요.',
  '- rag: 회사 문서, 정책, 규정 등 저장된 문서에서 정보를 찾아야 하는 질문',
  '- agent: 일반 대화, 계산, 코딩, 날씨, 검색 등',
].join('\n');

/** The agent's system prompt: persona, the summary window, and the reference documents. */
export function agentSystemPrompt(persona: string, summary: string, context: string): string {
  const parts = [persona];
  const rendered = formatSummaryForPrompt(summary);
  if (rendered) parts.push(`[이전 대화 요약]\n${rendered}`);
  if (context.trim()) parts.push(`[참고 문서]\n${context.trim()}`);
  return parts.join('\n\n');
}

/** What the user is told when a request needs more LLM ⇄ tool rounds than allowed. */
export function tooComplexAnswer(korean: boolean, maxIterations: number): string {
  return korean
    ? `요청이 너무 복잡합니다. 도구를 ${maxIterations}번 사용해도 답을 끝내지 못했어요. 질문을 나누어 다시 물어봐 주세요.`
    : `The request is too complex: it was not finished after ${maxIterations} rounds of tool use. Please split it into smaller questions.`;
}

/** What the user is told when the model cannot be reached after its retries. */
export function modelFailureAnswer(korean: boolean): string {
  return korean
    ? '죄송합니다. 지금은 언어 모델에 연결할 수 없어 답변하지 못했습니다. 잠시 후 다시 시도해 주세요.'
    : 'Sorry, the language model cannot be reached right now. Please try again in a moment.';
}

/** True when a text has Hangul: answers and notices follow the user's language. */
export function isKorean(text: string): boolean {
  return /[\uac00-\ud7a3]/.test(text);
}
