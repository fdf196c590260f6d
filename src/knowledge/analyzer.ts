/**
 * Turns text into search terms that work for Korean as well as for Latin scripts.
 *
 * Korean glues particles and endings to words ("정책이", "정책을") and compounds
 * nouns without spaces ("휴가정책"), so whole-word terms rarely match. Hangul runs
 * are indexed as overlapping character bigrams ("휴가정책" → 휴가 가정 정책), plus
 * the word without its particle as a whole term. Latin words are lower-cased and
 * stemmed by the index (FTS5's porter tokenizer); numbers stay as they are.
 */
import { isQueryStopWord, stripKoreanSuffix, stripPredicateEnding } from './korean-words.ts';

const runPattern =
  /[\uac00-\ud7a3]+|[\u3040-\u30ff\u4e00-\u9fff]+|(?:(?![\uac00-\ud7a3\u3040-\u30ff\u4e00-\u9fff])[\p{L}\p{N}])+/gu;
const hangulRun = /^[\uac00-\ud7a3]+$/;
const cjkRun = /^[\u3040-\u30ff\u4e00-\u9fff]+$/;

const englishStopWords = new Set(
  (
    'a an the of to in on at by for from with about as is are was were be been being do does did ' +
    'what which who whom whose when where why how that this these those it its and or not no into ' +
    'than then there their they he she his her him we our you your i me my can could would should ' +
    'will shall may might must has have had please tell know'
  ).split(' '),
);

/** A one-syllable noun with a one-syllable particle ("철의", "금은"): the noun. */
function shortNoun(word: string): string | undefined {
  if (word.length !== 2) return undefined;
  const stem = stripKoreanSuffix(word, 1);
  return stem.length === 1 ? stem : undefined;
}

function bigrams(run: string, into: string[]): void {
  if (run.length === 1) {
    into.push(run);
    return;
  }
  for (let index = 0; index + 1 < run.length; index += 1) into.push(run.slice(index, index + 2));
}

/** Terms to index for a text (duplicates kept: term frequency counts). */
export function indexTerms(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.normalize('NFC').matchAll(runPattern)) {
    const run = match[0];
    if (hangulRun.test(run)) {
      bigrams(run, terms);
      const stem = stripKoreanSuffix(run);
      if (stem.length >= 3) terms.push(stem);
      const noun = shortNoun(run);
      if (noun) terms.push(noun);
    } else if (cjkRun.test(run)) {
      bigrams(run, terms);
    } else {
      terms.push(run.toLowerCase());
    }
  }
  return terms;
}

/** One query word's contribution: its bigrams (of the stem, for Hangul) and whole-word stem. */
interface QueryWord {
  grams: string[];
  /** The Hangul stem of three syllables or more, matched as a whole word by the index. */
  stem?: string;
  /** A Latin word or number: one term of its own. */
  latin?: string;
}

/** The words of a query that say what is sought, without question and stop words. */
function queryWords(text: string): QueryWord[] {
  const found: QueryWord[] = [];
  for (const match of text.normalize('NFC').matchAll(runPattern)) {
    const run = match[0];
    if (hangulRun.test(run)) {
      const stem = shortNoun(run) ?? stripPredicateEnding(stripKoreanSuffix(run));
      if (isQueryStopWord(run, stem)) continue;
      const grams: string[] = [];
      bigrams(stem, grams);
      found.push(stem.length >= 3 ? { grams, stem } : { grams });
    } else if (cjkRun.test(run)) {
      const grams: string[] = [];
      bigrams(run, grams);
      found.push({ grams });
    } else {
      const word = run.toLowerCase();
      if (!englishStopWords.has(word)) found.push({ grams: [], latin: word });
    }
  }
  return found;
}

/** Terms to search for a query: like indexing, without question words and stop words, deduplicated. */
export function queryTerms(text: string): string[] {
  const terms = new Set<string>();
  for (const word of queryWords(text)) {
    for (const term of word.grams) terms.add(term);
    if (word.stem !== undefined) terms.add(word.stem);
    if (word.latin !== undefined) terms.add(word.latin);
  }
  return [...terms];
}

/** A query term and how much its matches count in ranking (1 for a Latin word). */
export interface WeightedTerm {
  term: string;
  weight: number;
}

/**
 * The terms a ranking should score for a query, each with a weight. Bigrams of one word
 * are not independent evidence (a four-syllable word yields three, all present or absent
 * together), so the bigrams of a word of `m` bigrams weigh 1/√m each: a word counts
 * about √m, not m, times a bigram. A lone syllable ("해", "철") weighs 1/√2. The whole-word
 * stem is left out: it only repeats what its bigrams already matched. A term that two
 * words share keeps its larger weight.
 */
export function weightedQueryTerms(text: string): WeightedTerm[] {
  const weights = new Map<string, number>();
  const keep = (term: string, weight: number) =>
    weights.set(term, Math.max(weights.get(term) ?? 0, weight));
  for (const word of queryWords(text)) {
    if (word.latin !== undefined) keep(word.latin, 1);
    const count = word.grams.length;
    const single = count === 1 && (word.grams[0] as string).length === 1;
    for (const term of word.grams) keep(term, single ? Math.SQRT1_2 : 1 / Math.sqrt(count));
  }
  return [...weights].map(([term, weight]) => ({ term, weight }));
}
