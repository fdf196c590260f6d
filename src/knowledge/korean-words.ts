/**
 * Korean word shapes the analyzer needs: particles and endings to strip, and the
 * question and function words a query drops. Lists are space-separated, longest first.
 */

const words = (list: string): string[] => list.split(' ');

/** Endings grouped by their last syllable (longest first within a group), for a quick lookup. */
function byLastSyllable(endings: readonly string[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const ending of endings) {
    const last = ending.at(-1) as string;
    groups.set(last, [...(groups.get(last) ?? []), ending]);
  }
  return groups;
}

/** `word` without the first of `endings` (grouped by last syllable) it ends with, if `keep` remain. */
function stripEnding(word: string, endings: Map<string, string[]>, keep: number): string {
  for (const ending of endings.get(word.at(-1) ?? '') ?? []) {
    if (word.length - ending.length >= keep && word.endsWith(ending)) {
      return word.slice(0, -ending.length);
    }
  }
  return word;
}

/** Particles and endings stripped from the end of a Korean word, longest first. */
const koreanSuffixes = byLastSyllable(
  words(
    '에서부터 으로부터 에서는 에게서 으로서 으로써 이라고 이라는 에서의 까지는 부터는 이었다 하였다 되었다 ' +
      '에서 에게 으로 로서 로써 까지 부터 처럼 보다 이나 이며 이고 이다 였다 했다 한다 하는 하여 했던 라고 ' +
      '라는 에는 와는 과는 은 는 이 가 을 를 의 에 로 와 과 도 만',
  ),
);

/**
 * Endings of predicates built on a noun (즉위하였다, 설치된, 주장한) and of the copula,
 * longest first: what is left is the noun, so questions and passages that conjugate it
 * differently share one stem.
 */
const predicateEndings = byLastSyllable(
  words(
    '하였는데 하였으며 하였는가 하였을까 하였다고 되었으며 되었는가 되었을까 ' +
      '하였다 하였고 하였나 하였던 하였을 되었다 되었고 되었나 되었던 되었을 시켰다 시켰나 이었다 이었나 이었던 ' +
      '했다 했나 했던 했을 했고 한다 하는 하고 하며 하여 해서 하면 하기 하던 하게 됐다 됐나 됐던 ' +
      '되는 되어 되고 되며 되기 되던 시킨 시켜 였다 였나 였던 이다 이며 이고 ' +
      '한 할 된 될 인',
  ),
);

/** Function words and vague adverbs dropped from queries as whole words. */
const queryStopWords = new Set(
  words(
    '중 약 등 및 또는 그리고 그 이 저 것 수 때 대략 주로 가장 처음 어느 다른 모두 매우 같은 있는 있다 ' +
      '한다 된다 하는 되는 위해 대해',
  ),
);

/**
 * Question words that start a longer word only as question words ("무엇인가", "어디에서",
 * "얼마나", "뭐라고"): any word they begin is dropped from queries.
 */
const questionStems = words(
  '무엇 무슨 언제 어디 누구 어떻 어떤 어느 얼마 뭐 입니까 합니까 습니까 있는가 하는가 되는가 알려 궁금',
);

/**
 * Question words that also begin ordinary nouns ("왜" in 왜구, "인지" in 인지세법, "몇" in
 * 몇몇): dropped only alone or with a grammatical ending ("왜요", "몇째", "인가요").
 */
const questionWordsWithEndings = words('왜 몇 누가 인가 인지');
const questionWordEndings = new Set([
  '',
  ...words('요 냐 나 지 가 까 째 이 을 를 은 는 의 에 로 인가 인지 일까 이나'),
]);

/** The word without a trailing particle or ending, when enough of it is left. */
export function stripKoreanSuffix(word: string, keep = 2): string {
  return stripEnding(word, koreanSuffixes, keep);
}

/** A word without a predicate or copula ending, when two syllables or more remain. */
export function stripPredicateEnding(word: string): string {
  return stripEnding(word, predicateEndings, 2);
}

/** Whether a query word (as typed, and as stemmed) asks rather than says what is sought. */
export function isQueryStopWord(word: string, stem: string): boolean {
  if (queryStopWords.has(word) || queryStopWords.has(stem)) return true;
  if (questionStems.some((stop) => stem.startsWith(stop))) return true;
  return questionWordsWithEndings.some(
    (stop) => word.startsWith(stop) && questionWordEndings.has(word.slice(stop.length)),
  );
}
