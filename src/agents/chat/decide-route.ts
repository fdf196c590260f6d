import { z } from 'zod';
import { isYeoulError } from '../../core/index.ts';
import { indexTerms, queryTerms } from '../../knowledge/index.ts';
import { dateQuestion, isLogQuestion } from '../../models/index.ts';
import type { KnowledgePassage } from '../../tools/index.ts';
import { routerPrompt } from '../prompts.ts';
import type { AgentDependencies, AgentUsage } from '../types.ts';

/** Where the chat agent sends a question, why, and what it cost. */
export interface RouteDecision {
  route: 'rag' | 'agent';
  reason: string;
  /** Passages found while deciding, reused by the rag node (no second search). */
  passages: KnowledgePassage[];
  usage: AgentUsage;
}

const routeSchema = z.object({ route: z.enum(['rag', 'agent']), reason: z.string() });

/**
 * Questions a tool answers: arithmetic, weather, searches — and below, the date or time
 * ("오늘 며칠이야", not "연차는 며칠이야", which documents answer), a bare formula, and the
 * logs of a named service. Each pattern is tested on its own: joined with `.*` they would
 * cost quadratic time on a long message.
 */
const toolShaped =
  /\d\s*[-+*/^×÷%]\s*\d|곱하기|나누기|더하기|빼기|계산|날씨|기온|검색|weather|forecast|calculate|compute|search/i;
/** A message that is only a function call with numbers in it: `sum(ones(3,000,3,000))`. */
const formula = /^[a-z]+\([^가-힣]*\)\s*$/i;

function isToolShaped(question: string): boolean {
  return (
    toolShaped.test(question) ||
    dateQuestion.test(question) ||
    isLogQuestion(question) ||
    (formula.test(question) && /\d/.test(question))
  );
}

const smallTalk =
  /^\s*(?:안녕|반가워|고마워|감사|하이|hello|hi|hey|thanks|thank you|good (?:morning|evening))|(?:내|제)\s*이름|my name/i;
/** Share of the question's terms found in the best passage above which the knowledge base clearly answers. */
const clearMatch = 0.5;
/** Below this share the knowledge base clearly does not. */
const clearMiss = 0.25;

const noUsage = (): AgentUsage => ({ llmCalls: 0, inputTokens: 0, outputTokens: 0 });

/**
 * Routes a question to rag or agent. Clear signals decide without the LLM: no knowledge
 * base, tool-shaped questions, small talk, and how much of the question the best passage
 * covers. Only a middling match asks the LLM for a structured `{route, reason}` (the
 * original design asked it every turn).
 */
export async function decideRoute(
  question: string,
  deps: AgentDependencies,
  signal?: AbortSignal,
): Promise<RouteDecision> {
  if (deps.routerMode === 'llm') {
    const passages = deps.knowledge ? await searchOrUnavailable(deps, question) : [];
    if (passages === 'unavailable') return searchUnavailable();
    return askModel(question, deps, passages, signal);
  }
  if (deps.knowledge === undefined)
    return { route: 'agent', reason: 'no knowledge base', passages: [], usage: noUsage() };
  if (smallTalk.test(question))
    return { route: 'agent', reason: 'small talk', passages: [], usage: noUsage() };
  if (isToolShaped(question))
    return { route: 'agent', reason: 'tool-shaped question', passages: [], usage: noUsage() };
  const passages = await searchOrUnavailable(deps, question);
  if (passages === 'unavailable') return searchUnavailable();
  const best = passages[0];
  if (best === undefined)
    return { route: 'agent', reason: 'no matching documents', passages, usage: noUsage() };
  const coverage = termCoverage(
    withoutQuestionEnding(contentPart(question)),
    `${best.title}\n${best.heading}\n${best.text}`,
  );
  if (coverage >= clearMatch) {
    return {
      route: 'rag',
      reason: `documents cover ${Math.round(coverage * 100)}% of the question`,
      passages,
      usage: noUsage(),
    };
  }
  if (coverage < clearMiss) {
    return {
      route: 'agent',
      reason: `documents cover only ${Math.round(coverage * 100)}% of the question`,
      passages: [],
      usage: noUsage(),
    };
  }
  return askModel(question, deps, passages, signal);
}

/**
 * With the search index away (`search_unavailable`), the question goes to rag anyway: the
 * rag node tells the model that the documents cannot be checked now, instead of letting it
 * answer a document question as if there were none.
 */
export const searchUnavailableReason = 'knowledge search unavailable';

const searchUnavailable = (): RouteDecision => ({
  route: 'rag',
  reason: searchUnavailableReason,
  passages: [],
  usage: noUsage(),
});

async function searchOrUnavailable(
  deps: AgentDependencies,
  question: string,
): Promise<KnowledgePassage[] | 'unavailable'> {
  try {
    return (await deps.knowledge?.search(question, { k: 4 })) ?? [];
  } catch (error) {
    if (isYeoulError(error, 'search_unavailable')) return 'unavailable';
    throw error;
  }
}

/** Asks the LLM for a structured `{route, reason}`; an unreachable model means agent. */
async function askModel(
  question: string,
  deps: AgentDependencies,
  passages: KnowledgePassage[],
  signal: AbortSignal | undefined,
): Promise<RouteDecision> {
  try {
    const decided = await deps.model.generateObject(routeSchema, {
      system: routerPrompt,
      messages: [{ role: 'user', content: question }],
      temperature: 0,
      ...(signal ? { signal } : {}),
    });
    const usage = {
      llmCalls: 1,
      inputTokens: decided.usage.inputTokens,
      outputTokens: decided.usage.outputTokens,
    };
    return { ...decided.object, passages: decided.object.route === 'rag' ? passages : [], usage };
  } catch (error) {
    if (signal?.aborted) throw error;
    // The router is an optimisation: when its LLM call fails, answering without documents is safe.
    return {
      route: 'agent',
      reason: 'router model unavailable',
      passages: [],
      usage: { llmCalls: 1, inputTokens: 0, outputTokens: 0 },
    };
  }
}

/**
 * The part of a question documents could answer: "팀 예산이 얼마야? 20% 증가하면?" → "팀
 * 예산이 얼마야?". A percentage change or an arithmetic expression is the calculator's
 * part; leaving it in would make a document that answers the rest look like a weak match.
 */
function contentPart(question: string): string {
  const stripped = question
    .replace(/\d+(?:\.\d+)?\s*%\s*(?:[가-힣]+|(?:up|down|more|less|increase|decrease)\w*)?/gi, ' ')
    .replace(/[\d.,]+(?:\s*[-+*/^×÷]\s*[\d.,]+)+/g, ' ')
    .replace(/계산해\s*줘|계산|하면\s*[?？]?/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return stripped.length > 0 ? stripped : question;
}

/** "연차는 며칠이야?" → "연차는 며칠": the copula or question ending is not what is asked about. */
function withoutQuestionEnding(question: string): string {
  return question
    .trim()
    .replace(/[?？!.]+$/, '')
    .replace(
      /([가-힣])(?:이에요|이야|예요|인가요|인가|일까요|일까|이니|나요|니|야|죠|지요)$/,
      '$1',
    );
}

/** Share of a question's search terms that occur in a passage (0..1). */
export function termCoverage(question: string, passage: string): number {
  const wanted = queryTerms(question);
  if (wanted.length === 0) return 0;
  const present = new Set(indexTerms(passage));
  return wanted.filter((term) => present.has(term)).length / wanted.length;
}
