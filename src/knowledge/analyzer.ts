/**
 * Turns text into search terms that work for Korean as well as for Latin scripts.
 *
 * Korean glues particles and endings to words ("정책이", "정책을") and compounds
 * nouns without spaces ("휴가정책"), so whole-word terms rarely match. Hangul runs
 * are indexed as overlapping character bigrams ("휴가정책" → 휴가 가정 정책), plus
 * the word without its particle as a whole term. Latin words are lower-cased and
 * stemmed by the index (FTS5's porter tokenizer); numbers stay as they are.
 */

const runPattern =
  /[\uac00-\ud7a3]+|[\u3040-\u30ff\u4e00-\u9fff]+|(?:(?![\uac00-\ud7a3\u3040-\u30ff\u4e00-\u9fff])[\p{L}\p{N}])+/gu;
const hangulRun = /^[\uac00-\ud7a3]+$/;
const cjkRun = /^[\u3040-\u30ff\u4e00-\u9fff]+$/;

/** Particles and endings stripped from the end of a Korean word, longest first. */
const koreanSuffixes = [
  '에서부터',
  '으로부터',
  '에서는',
  '에게서',
  '으로서',
  '으로써',
  '이라고',
  '이라는',
  '에서의',
  '까지는',
  '부터는',
  '이었다',
  '하였다',
  '되었다',
  '에서',
  '에게',
  '으로',
  '로서',
  '로써',
  '까지',
  '부터',
  '처럼',
  '보다',
  '이나',
  '이며',
  '이고',
  '이다',
  '였다',
  '했다',
  '한다',
  '하는',
  '하여',
  '했던',
  '라고',
  '라는',
  '에는',
  '와는',
  '과는',
  '은',
  '는',
  '이',
  '가',
  '을',
  '를',
  '의',
  '에',
  '로',
  '와',
  '과',
  '도',
  '만',
];

/** Function words and vague adverbs dropped from queries as whole words. */
const koreanQueryStopWords = new Set([
  '중',
  '약',
  '등',
  '및',
  '또는',
  '그리고',
  '그',
  '이',
  '저',
  '것',
  '수',
  '때',
  '대략',
  '주로',
  '가장',
  '처음',
  '어느',
  '다른',
  '모두',
  '매우',
  '같은',
  '있는',
  '있다',
  '한다',
  '된다',
  '하는',
  '되는',
  '위해',
  '대해',
]);

/** Question and function words that say nothing about which passage answers. */
const koreanQueryStopStems = [
  '무엇',
  '무슨',
  '언제',
  '어디',
  '누구',
  '누가',
  '어떻',
  '어떤',
  '어느',
  '얼마',
  '몇',
  '왜',
  '인가',
  '입니까',
  '합니까',
  '습니까',
  '있는가',
  '하는가',
  '되는가',
  '인지',
  '알려',
  '궁금',
];

const englishStopWords = new Set(
  (
    'a an the of to in on at by for from with about as is are was were be been being do does did ' +
    'what which who whom whose when where why how that this these those it its and or not no into ' +
    'than then there their they he she his her him we our you your i me my can could would should ' +
    'will shall may might must has have had please tell know'
  ).split(' '),
);

/** The word without a trailing particle or ending, when enough of it is left. */
export function stripKoreanSuffix(word: string, keep = 2): string {
  for (const suffix of koreanSuffixes) {
    if (word.length - suffix.length >= keep && word.endsWith(suffix)) {
      return word.slice(0, -suffix.length);
    }
  }
  return word;
}

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

/** Terms to search for a query: like indexing, without question words and stop words, deduplicated. */
export function queryTerms(text: string): string[] {
  const terms = new Set<string>();
  for (const match of text.normalize('NFC').matchAll(runPattern)) {
    const run = match[0];
    if (hangulRun.test(run)) {
      const noun = shortNoun(run);
      const stem = noun ?? stripKoreanSuffix(run);
      if (koreanQueryStopWords.has(run) || koreanQueryStopWords.has(stem)) continue;
      if (koreanQueryStopStems.some((stop) => stem.startsWith(stop))) continue;
      const found: string[] = [];
      bigrams(stem, found);
      for (const term of found) terms.add(term);
      if (stem.length >= 3) terms.add(stem);
    } else if (cjkRun.test(run)) {
      const found: string[] = [];
      bigrams(run, found);
      for (const term of found) terms.add(term);
    } else {
      const word = run.toLowerCase();
      if (!englishStopWords.has(word)) terms.add(word);
    }
  }
  return [...terms];
}
