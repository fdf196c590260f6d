import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The corpora of bench/corpora: `ko` and `en` (short paragraphs), `ko-wiki` (Wikipedia-length). */
export type CorpusName = 'ko' | 'en' | 'ko-wiki';

/** A retrieval corpus: paragraphs and questions whose answer paragraph is known. */
export interface QaCorpus {
  name: CorpusName;
  language: 'ko' | 'en';
  paragraphs: Array<{ id: string; title: string; text: string }>;
  questions: Array<{ id: string; paragraphId: string; question: string; answer: string }>;
}

/** Reads bench/corpora/<name>-qa.json. */
export function loadCorpus(name: CorpusName): QaCorpus {
  const path = join(import.meta.dirname, '..', 'corpora', `${name}-qa.json`);
  return { ...JSON.parse(readFileSync(path, 'utf8')), name };
}

/** Recall@1, recall@5 and MRR@10 of ranked paragraph ids against the known answers. */
export function scoreRankings(
  corpus: QaCorpus,
  rankings: string[][],
): { recallAt1: number; recallAt5: number; mrrAt10: number } {
  let atOne = 0;
  let atFive = 0;
  let reciprocal = 0;
  corpus.questions.forEach((question, index) => {
    const rank = (rankings[index] ?? []).indexOf(question.paragraphId);
    if (rank === 0) atOne += 1;
    if (rank >= 0 && rank < 5) atFive += 1;
    if (rank >= 0 && rank < 10) reciprocal += 1 / (rank + 1);
  });
  const count = corpus.questions.length;
  const round = (value: number) => Math.round((value / count) * 1000) / 1000;
  return { recallAt1: round(atOne), recallAt5: round(atFive), mrrAt10: round(reciprocal) };
}

/** A seeded pseudo-random generator (mulberry32), so synthetic corpora are the same every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Synthetic chunks with a natural (Zipf) word distribution: the vocabulary is every word
 * of the given corpora plus made-up Korean words (of the corpora's syllables, at their
 * frequencies) and English-like words, shuffled, and each chunk draws 60–100 words by
 * Zipf rank. Real questions therefore hit synthetic chunks about
 * as often as they would hit unrelated text in a large collection.
 */
export function zipfChunks(
  count: number,
  corpora: QaCorpus[],
  seed = 42,
): Array<{ id: string; title: string; text: string }> {
  const random = seededRandom(seed);
  const realWords = [
    ...new Set(
      corpora.flatMap((corpus) =>
        corpus.paragraphs.flatMap((paragraph) => paragraph.text.split(/\s+/)),
      ),
    ),
  ];
  // Made-up Korean words use syllables as often as the corpora do, so their bigrams
  // collide with real ones the way they would in real text.
  const syllables = corpora.flatMap((corpus) =>
    corpus.paragraphs.flatMap((paragraph) => paragraph.text.match(/[\uac00-\ud7a3]/g) ?? []),
  );
  const syllable = () => syllables[Math.floor(random() * syllables.length)] ?? '가';
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const madeUp = Array.from({ length: 60_000 }, (_, index) =>
    index % 3 === 0
      ? Array.from(
          { length: 4 + Math.floor(random() * 6) },
          () => letters[Math.floor(random() * 26)],
        ).join('')
      : Array.from({ length: 2 + Math.floor(random() * 3) }, syllable).join(''),
  );
  const vocabulary = [...realWords, ...madeUp];
  for (let index = vocabulary.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [vocabulary[index], vocabulary[other]] = [
      vocabulary[other] as string,
      vocabulary[index] as string,
    ];
  }
  // Zipf sampling by inverse CDF over ranks with exponent 1.
  const harmonic: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= vocabulary.length; rank += 1) {
    total += 1 / rank;
    harmonic.push(total);
  }
  const draw = () => {
    const target = random() * total;
    let low = 0;
    let high = harmonic.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((harmonic[middle] as number) < target) low = middle + 1;
      else high = middle;
    }
    return vocabulary[low] as string;
  };
  return Array.from({ length: count }, (_, index) => ({
    id: `syn-${index}`,
    title: `Synthetic ${index}`,
    text: Array.from({ length: 60 + Math.floor(random() * 41) }, draw).join(' '),
  }));
}
