import { changeExpression, formatMoney, moneyIn, percentChangeIn } from './amounts.ts';
import { findToolIntent } from './intents.ts';
import { bigramsOf, isKorean, sentencesOf, weightedOverlaps } from './language.ts';
import { fileToWrite, namedToolCall } from './named-tool.ts';
import { asksForName, latestName, nameStatedIn, profileNameIn } from './names.ts';
import type { PromptTurn, ReadPrompt } from './read-prompt.ts';
import { objectFromSchema } from './structured.ts';
import { asksForSummary, extractiveSummary } from './summarize.ts';
import { answerForResult } from './tool-answers.ts';

/** What the offline model answers: text, one tool call, or a structured object. */
export type OfflineReply =
  | { kind: 'text'; text: string }
  | { kind: 'tool-call'; id: string; name: string; args: Record<string, unknown> }
  | { kind: 'object'; object: unknown };

const contextMarkers = /\[참고 문서\]|\[reference documents\]|reference documents:|context:/i;
const minimumRelevance = 0.2;

/** Decides the offline model's reply to a prompt; deterministic for the same prompt. */
export function respond(prompt: ReadPrompt): OfflineReply {
  const lastUser = [...prompt.turns].reverse().find((turn) => turn.role === 'user');
  // Full-width digits and letters (１２３, ＡＢＣ) read as the ASCII ones.
  const userText = (lastUser?.text ?? '').normalize('NFKC');
  const korean = isKorean(userText || prompt.system);
  if (prompt.wantsJson) {
    return { kind: 'object', object: objectFromSchema(prompt.jsonSchema, userText, korean) };
  }
  const last = prompt.turns.at(-1);
  if (last?.role === 'tool') {
    return {
      kind: 'text',
      text: changeAnswer(prompt, userText, korean) ?? answerFromToolResults(prompt.turns, korean),
    };
  }
  if (asksForSummary(prompt.system, userText)) {
    const earlier = prompt.turns.slice(0, -1).map((turn) => turn.text);
    const source = userText.length > 40 ? userText : earlier.join('\n');
    return { kind: 'text', text: extractiveSummary(source, korean) };
  }
  const stated = nameStatedIn(userText);
  if (stated) {
    return {
      kind: 'text',
      text: korean
        ? `반가워요, ${stated}님! 무엇을 도와드릴까요?`
        : `Nice to meet you, ${stated}! How can I help?`,
    };
  }
  if (asksForName(userText)) return { kind: 'text', text: recallName(prompt, korean) };
  const context = contextAnswer(prompt.system, userText, korean);
  const intent =
    namedToolCall(userText, prompt.toolSchemas) ??
    writeIntent(userText, prompt.toolNames) ??
    changeIntent(userText, context, prompt.toolNames) ??
    findToolIntent(userText, prompt.toolNames);
  if (intent && !(intent.tool === 'search_wikipedia' && context)) {
    const callNumber = prompt.turns.reduce((count, turn) => count + turn.toolCalls.length, 0) + 1;
    return {
      kind: 'tool-call',
      id: `offline-call-${callNumber}`,
      name: intent.tool,
      args: intent.args,
    };
  }
  if (context) return { kind: 'text', text: context };
  if (
    /^\s*(?:안녕|반가워|하이)|^\s*(?:hello|hi|hey|good (?:morning|afternoon|evening))\b/i.test(
      userText,
    )
  ) {
    return { kind: 'text', text: greeting(korean) };
  }
  return { kind: 'text', text: fallback(korean) };
}

function answerFromToolResults(turns: PromptTurn[], korean: boolean): string {
  const results = [];
  for (let index = turns.length - 1; index >= 0 && turns[index]?.role === 'tool'; index -= 1) {
    results.unshift(...(turns[index] as PromptTurn).toolResults);
  }
  const failed = results.find((result) => result.isError || /^Error:/.test(result.text));
  if (failed) {
    const problem = failed.text.replace(/^Error:\s*/, '');
    return korean
      ? `죄송합니다. ${failed.name} 도구를 실행하는 중 문제가 생겼습니다: ${problem}`
      : `Sorry, the ${failed.name} tool failed: ${problem}`;
  }
  return results.map((result) => answerForResult(result, korean)).join('\n');
}

/**
 * "팀 예산이 얼마야? 20% 증가하면?": the first amount the quoted documents state, the change
 * the question names, and the calculator expression for it — computed by the calculator,
 * not in the head. Undefined unless the question asks for a change of such an amount.
 */
function changeRequest(question: string, context: string | undefined) {
  const change = percentChangeIn(question);
  const amount = context === undefined ? undefined : moneyIn(context)[0];
  if (change === undefined || amount === undefined) return undefined;
  return { change, amount, expression: changeExpression(amount, change) };
}

function changeIntent(
  question: string,
  context: string | undefined,
  toolNames: Set<string>,
): { tool: 'calculator'; args: { expression: string } } | undefined {
  const asked = toolNames.has('calculator') ? changeRequest(question, context) : undefined;
  return asked && { tool: 'calculator', args: { expression: asked.expression } };
}

function writeIntent(
  text: string,
  toolNames: Set<string>,
): { tool: 'write_file'; args: { path: string; content: string } } | undefined {
  const file = toolNames.has('write_file') ? fileToWrite(text) : undefined;
  return file && { tool: 'write_file', args: file };
}

/** The answer to such a question once the calculator has answered: the fact, then the change. */
function changeAnswer(prompt: ReadPrompt, question: string, korean: boolean): string | undefined {
  const context = contextAnswer(prompt.system, question, korean);
  const asked = changeRequest(question, context);
  const result = prompt.turns.at(-1)?.toolResults.find((entry) => entry.name === 'calculator');
  if (asked === undefined || result === undefined || result.isError) return undefined;
  const { change, amount, expression } = asked;
  if (!result.text.startsWith(`${expression} = `)) return undefined;
  const value = Number(result.text.slice(expression.length + 3));
  if (!Number.isFinite(value)) return undefined;
  const changed = formatMoney(value, amount.currency);
  return korean
    ? `${context}\n${amount.text}에서 ${change.percent}% ${change.up ? '증가' : '감소'}하면 ${changed}입니다.`
    : `${context}\n${change.up ? 'Increased' : 'Decreased'} by ${change.percent}%, ${amount.text} becomes ${changed}.`;
}

function recallName(prompt: ReadPrompt, korean: boolean): string {
  const texts = [
    prompt.system,
    ...prompt.turns
      .slice(0, -1)
      .filter((turn) => turn.role === 'user')
      .map((turn) => turn.text),
  ];
  // The conversation (with its summary) first, then the owner's long-term profile.
  const name = latestName(texts) ?? profileNameIn(prompt.system);
  if (name) return korean ? `${name}님이라고 하셨어요.` : `You told me your name is ${name}.`;
  return korean ? '아직 이름을 알려주지 않으셨어요.' : "You haven't told me your name yet.";
}

function contextAnswer(system: string, question: string, korean: boolean): string | undefined {
  const marker = system.search(contextMarkers);
  if (marker === -1 || question.trim() === '') return undefined;
  const block =
    system
      .slice(marker)
      .replace(contextMarkers, '')
      .split(/\n\[[^\]\d][^\]]*\]\s*\n/)[0] ?? '';
  const query = bigramsOf(question, { stripParticles: true });
  // Passages are labelled "[1] title — section"; the label counts for relevance, but only
  // the passage's own sentences are quoted. A bigram every passage shares ("휴가" in a
  // vacation policy) says little: rarer ones ("경조") decide which passage is meant.
  const texts = block
    .split(/\n(?=\[\d+\]\s)/)
    .map((passage) => passage.trim())
    .filter((passage) => passage.length > 0);
  const scores = weightedOverlaps(
    query,
    texts.map((passage) => bigramsOf(passage)),
  );
  const passages = texts
    .map((passage, index) => ({ passage, score: scores[index] as number }))
    .sort((a, b) => b.score - a.score);
  const best = passages[0];
  if (best === undefined || best.score < minimumRelevance) return undefined;
  const [label = '', ...lines] = best.passage.split('\n');
  const body =
    lines.length > 0 && /^\[\d+\]\s/.test(label)
      ? lines.join('\n')
      : best.passage.replace(/^\[\d+\]\s*/, '');
  const sentences = sentencesOf(body)
    // List markers ("- ", "1. ") go; a leading number that is content ("2024년") stays.
    .map((sentence) => sentence.replace(/^(?:[-*•]|\d+[.)])\s+/, ''))
    .filter((sentence) => sentence.length > 0);
  const sentenceScores = weightedOverlaps(
    query,
    sentences.map((sentence) => bigramsOf(sentence)),
  );
  const ranked = sentences
    .map((sentence, index) => ({ sentence, index, score: sentenceScores[index] as number }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, 2)
    .sort((a, b) => a.index - b.index);
  if (ranked.length === 0) return undefined;
  const quoted = ranked.map((entry) => entry.sentence).join(' ');
  return korean ? `참고 문서에 따르면: ${quoted}` : `According to the documents: ${quoted}`;
}

function greeting(korean: boolean): string {
  return korean
    ? '안녕하세요! Yeoul입니다. 지금은 오프라인 모델로 동작하고 있어 계산, 날짜·날씨·위키백과 조회, 참고 문서 안내를 도와드릴 수 있어요.'
    : "Hello! I'm Yeoul, running on the offline model for now: I can help with arithmetic, the date, the weather, Wikipedia and the knowledge base.";
}

function fallback(korean: boolean): string {
  return korean
    ? '저는 Yeoul의 오프라인 모델이라 계산, 날짜·날씨·위키백과 조회, 참고 문서 인용만 할 수 있고 언어 모델은 아닙니다. 실제 모델과 대화하려면 OPENAI_API_KEY(또는 ANTHROPIC_API_KEY)를 설정하거나 YEOUL_MODEL로 모델을 지정하세요 (예: YEOUL_MODEL=ollama:llama3.1).'
    : "I'm Yeoul's offline model: I can do arithmetic, look up the date, the weather and Wikipedia, and quote the knowledge base, but I am not a language model. To talk to a real one, set OPENAI_API_KEY (or ANTHROPIC_API_KEY), or pick a model with YEOUL_MODEL (for example YEOUL_MODEL=ollama:llama3.1).";
}
