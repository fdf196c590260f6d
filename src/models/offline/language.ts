/** True when the text has Hangul in it: the offline model answers in Korean then. */
export function isKorean(text: string): boolean {
  return /[\u3131-\u318e\uac00-\ud7a3]/.test(text);
}

/** Formats a number the way people read it: thousands separators, at most 10 decimals. */
export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 10 });

/** Adds thousands separators to every plain number in a text (`56088` → `56,088`). */
export function formatNumbersIn(text: string): string {
  return text.replace(/-?\d{4,}(?:\.\d+)?/g, (match) => {
    const value = Number(match);
    return Number.isFinite(value) && Math.abs(value) < 1e21 ? formatNumber(value) : match;
  });
}

/** Splits a text into sentences (Korean and English punctuation, and line breaks). */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?。])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
}

/** Particles and endings glued to Korean words in questions ("휴가는", "연차를", "정책이야"). */
const particle =
  /(?:이에요|예요|이야|이죠|인가요|은|는|이|가|을|를|의|에서|에게|에|도|만|와|과|로|으로|야)$/;

/**
 * Character bigrams of a text, lower-cased, without spaces or punctuation; with
 * `stripParticles`, Korean words lose a trailing particle first ("휴가는" → "휴가").
 */
export function bigramsOf(text: string, options: { stripParticles?: boolean } = {}): Set<string> {
  const compact = text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ');
  const grams = new Set<string>();
  for (const raw of compact.split(' ')) {
    const word =
      options.stripParticles && /[가-힣]{3,}$/.test(raw) ? raw.replace(particle, '') : raw;
    if (word.length === 1) grams.add(word);
    for (let index = 0; index + 1 < word.length; index += 1)
      grams.add(word.slice(index, index + 2));
  }
  return grams;
}

/**
 * How much of the query each candidate holds (0..1), each query bigram weighted by how
 * rare it is among the candidates (inverse document frequency): a bigram every candidate
 * has counts little.
 */
export function weightedOverlaps(query: Set<string>, candidates: Set<string>[]): number[] {
  const weights = [...query].map((gram) => {
    const holders = candidates.reduce((count, grams) => count + (grams.has(gram) ? 1 : 0), 0);
    return { gram, weight: Math.log(1 + (candidates.length + 1) / (holders + 1)) };
  });
  const total = weights.reduce((sum, entry) => sum + entry.weight, 0);
  return candidates.map((candidate) => {
    if (total === 0) return 0;
    let shared = 0;
    for (const { gram, weight } of weights) if (candidate.has(gram)) shared += weight;
    return shared / total;
  });
}
