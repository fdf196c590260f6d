import { sentencesOf } from './language.ts';
import { nameStatedIn } from './names.ts';

const maxSentences = 4;

/** True when the request asks for a summary (the memory node's summarisation call). */
export function asksForSummary(system: string, lastUserText: string): boolean {
  // An instruction to summarise, not a mere mention ("[이전 대화 요약]" is a heading).
  const instruction = /요약(?:하|해)|summari[sz]e/i;
  return (
    instruction.test(system) ||
    /^(?:다음\s*)?(?:대화를?\s*)?요약|^summari[sz]e/i.test(lastUserText.trim())
  );
}

/**
 * An extractive summary: the sentences that carry the most (self-introductions first,
 * then numbers, then the user's own words), at most four, in their original order.
 */
export function extractiveSummary(text: string, korean: boolean): string {
  const sentences = sentencesOf(text).filter((sentence) => !/^(?:다음|아래).*요약/.test(sentence));
  if (sentences.length === 0)
    return korean ? '요약할 내용이 없습니다.' : 'There is nothing to summarize.';
  const scored = sentences.map((sentence, index) => ({
    index,
    sentence,
    score:
      (nameStatedIn(sentence) ? 10 : 0) +
      (/\d/.test(sentence) ? 2 : 0) +
      (/^(?:user|사용자|human)\s*[:：]/i.test(sentence) ? 1 : 0) +
      Math.min(sentence.length, 80) / 80,
  }));
  const kept = scored
    .sort((a, b) => b.score - a.score)
    .slice(0, maxSentences)
    .sort((a, b) => a.index - b.index);
  return kept.map((entry) => entry.sentence).join(' ');
}
