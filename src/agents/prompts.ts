import { formatSummaryForPrompt } from './memory/summary-window.ts';

/** The default persona ("a helpful AI assistant"): the first paragraph of every system prompt. */
export const defaultPersona = '당신은 도움이 되는 AI 어시스턴트입니다.';

/** The summariser's instructions (the memory node's LLM call). */
export const summarizerPrompt =
  '다음 대화를 요약하세요. 사용자의 이름, 날짜, 숫자, 결정된 사항처럼 나중에 다시 필요할 사실은 빠짐없이 남기고, ' +
  '3~5문장으로 간결하게 쓰세요. Summarize the conversation below; keep names, dates, numbers and decisions.';

/** The router's instructions to the LLM, for the cases heuristics leave open: pick rag or agent. */
export const routerPrompt = [
  '사용자의 질문을 어디로 보낼지 고르세요.',
  '- rag: 회사 문서, 정책, 규정 등 저장된 문서에서 정보를 찾아야 하는 질문',
  '- agent: 일반 대화, 계산, 코딩, 날씨, 검색 등',
].join('\n');

/**
 * The agent's system prompt: persona, the owner's long-term profile block, the summary
 * window, and the reference documents.
 */
export function agentSystemPrompt(
  persona: string,
  summary: string,
  context: string,
  profile = '',
): string {
  const parts = [persona];
  if (profile.trim()) parts.push(profile.trim());
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

/** The apology for each model failure, in Korean and in English: one sentence per cause. */
const modelFailureAnswers: Record<string, [korean: string, english: string]> = {
  model_auth_failed: [
    '죄송합니다. 언어 모델이 인증을 거부해 답변하지 못했습니다. 서버 관리자가 API 키 설정을 확인해야 합니다.',
    'Sorry, the language model refused the credentials, so there is no answer. The server’s administrator needs to check its API key.',
  ],
  model_unreachable: [
    '죄송합니다. 언어 모델 서버에 연결할 수 없어 답변하지 못했습니다. 서버 주소와 네트워크를 확인해 주세요.',
    'Sorry, the language model’s server cannot be reached, so there is no answer. Check its address and the network.',
  ],
  model_timeout: [
    '죄송합니다. 언어 모델이 제한 시간 안에 답하지 않았습니다. 잠시 후 다시 시도해 주세요.',
    'Sorry, the language model did not answer in time. Please try again in a moment.',
  ],
  model_rate_limited: [
    '죄송합니다. 언어 모델의 사용량 한도에 걸려 답변하지 못했습니다. 잠시 후 다시 시도해 주세요.',
    'Sorry, the language model’s rate limit was reached, so there is no answer. Please try again in a moment.',
  ],
  model_unavailable: [
    '죄송합니다. 언어 모델 서비스가 지금 응답하지 않습니다. 잠시 후 다시 시도해 주세요.',
    'Sorry, the language model service is not answering right now. Please try again in a moment.',
  ],
  model_bad_request: [
    '죄송합니다. 언어 모델이 이 요청을 거부했습니다. 질문을 바꾸거나 새 대화에서 다시 시도해 주세요.',
    'Sorry, the language model refused this request. Rephrase the question, or try again in a new conversation.',
  ],
};

/** What the user is told when the model fails for good: the cause, in the user's language. */
export function modelFailureAnswer(korean: boolean, code = 'model_unavailable'): string {
  const [inKorean, inEnglish] =
    modelFailureAnswers[code] ?? (modelFailureAnswers.model_unavailable as [string, string]);
  return korean ? inKorean : inEnglish;
}

/** True when a text has Hangul: answers and notices follow the user's language. */
export function isKorean(text: string): boolean {
  return /[\uac00-\ud7a3]/.test(text);
}
