import { isKorean } from '../prompts.ts';
import type { AssessedCheck, EvaluationInput } from './evaluation-types.ts';
import { readToolFacts, type ToolFacts } from './tool-facts.ts';

/** A document the agent was given: its number in the context (when it has one) and its title. */
interface GivenDocument {
  number?: number;
  title: string;
}

/** The shortest quoted passage worth checking (shorter quotes are terms, not passages). */
const minimumQuote = 8;
const quotes = /[“"]([^“”"\n]{8,400})[”"]|‘([^‘’\n]{8,400})’/g;
const bracketed = /[「『]([^」』\n]{1,200})[」』]/g;
const sourceMarker = /(?:출처|참고\s*문서|근거\s*문서|sources?)\s*[:：]\s*([^\n,;()]{2,80})/gi;

/**
 * (d) Knowledge base: when the answer cites a document — a numbered reference ("[2]"), a
 * source line ("출처: …"), a title in 「」 or 『』, or the title of a document it was given —
 * every cited number and title must be one of the documents in its context or the
 * search_knowledge results, and every passage it quotes must be in them (or in the other
 * tool results) word for word, spacing and case aside. A citation that is not there is
 * `contradicted`. Undefined (not applicable) when the answer cites nothing.
 */
export function knowledgeCheck(
  input: EvaluationInput,
  facts: ToolFacts = readToolFacts(input.toolResults),
): AssessedCheck | undefined {
  const documents: GivenDocument[] = [
    ...documentsIn(input.context),
    ...facts.titles.map((title) => ({ title })),
  ];
  const sources = normalise([input.context, input.question, ...facts.texts].join('\n'));
  const answer = input.answer;
  const numbers = [...answer.matchAll(/\[(\d{1,2})\]/g)].map((match) => Number(match[1]));
  const titles = [
    ...[...answer.matchAll(bracketed)].map((match) => match[1] as string),
    ...[...answer.matchAll(sourceMarker)].map((match) => (match[1] as string).trim()),
  ];
  const mentionsTitle = documents.some(
    (document) =>
      document.title.length >= 3 && normalise(answer).includes(normalise(document.title)),
  );
  if (numbers.length === 0 && titles.length === 0 && !mentionsTitle) return undefined;

  const missing: string[] = [];
  let verified = 0;
  for (const number of new Set(numbers)) {
    if (documents.some((document) => document.number === number)) verified += 1;
    else missing.push(`[${number}]`);
  }
  for (const title of new Set(titles)) {
    const name = normalise(title);
    const isDocument = documents.some((document) => {
      const known = normalise(document.title);
      return known.length > 0 && (name.includes(known) || known.includes(name));
    });
    if (isDocument || (name.length >= minimumQuote && sources.includes(name))) verified += 1;
    else missing.push(`「${title}」`);
  }
  for (const match of answer.matchAll(quotes)) {
    const quoted = (match[1] ?? match[2] ?? '').replace(/…$/, '');
    if (normalise(quoted).length < minimumQuote) continue;
    if (sources.includes(normalise(quoted))) verified += 1;
    else missing.push(`“${quoted}”`);
  }
  const total = verified + missing.length;
  const korean = isKorean(input.question);
  if (missing.length === 0) {
    return {
      check: { name: 'knowledge', score: 1, passed: true, feedback: '' },
      finding: 'fine',
    };
  }
  return {
    check: {
      name: 'knowledge',
      score: Math.round((verified / total) * 1000) / 1000,
      passed: false,
      feedback: korean
        ? `응답이 인용한 ${missing.join(', ')}은(는) 참고 문서나 도구 결과에 없습니다. 주어진 문서와 그 문장만 그대로 인용하세요.`
        : `The answer cites ${missing.join(', ')}, which is not in the documents or tool results. Cite only the documents given, quoting them word for word.`,
    },
    finding: 'contradicted',
  };
}

/** The numbered documents of a rag context: "[1] 제목 — 절" lines. */
function documentsIn(context: string): GivenDocument[] {
  return [...context.matchAll(/^\[(\d+)\]\s+(.+?)(?:\s+—\s+.*)?$/gm)].map((match) => ({
    number: Number(match[1]),
    title: (match[2] as string).trim(),
  }));
}

/** Lower case, one space between words, no quotes or ellipses: how passages are compared. */
function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[“”"‘’「」『』…]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
