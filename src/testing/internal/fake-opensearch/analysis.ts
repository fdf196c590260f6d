import { allowKeys, FakeOpenSearchError } from './fake-errors.ts';
import { standardTokenize, type Token } from './standard-tokenizer.ts';

/** Turns a field's text into its indexed (or searched) terms. */
export type Analyzer = (text: string) => string[];

type TokenFilter = (tokens: Token[]) => Token[];

/** Lucene's English stop words (`_english_`). */
const englishStopWords = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(
    ' ',
  ),
);

const cjkTypes = new Set(['<IDEOGRAPHIC>', '<HIRAGANA>', '<KATAKANA>', '<HANGUL>']);

/** `cjk_width`: full-width ASCII to ASCII, half-width katakana to full-width (voiced marks composed). */
const cjkWidth: TokenFilter = (tokens) =>
  tokens.map((token) => ({
    ...token,
    term: token.term.replace(/[\uff01-\uff5e\uff65-\uff9f]+/g, (run) => run.normalize('NFKC')),
  }));

const lowercase: TokenFilter = (tokens) =>
  tokens.map((token) => ({ ...token, term: token.term.toLowerCase() }));

/**
 * `cjk_bigram` (Lucene's CJKBigramFilter, unigrams off): CJK tokens whose offsets touch
 * form one run; a run becomes overlapping bigrams, a lone character a unigram. Other
 * tokens pass through and end a run.
 */
const cjkBigram: TokenFilter = (tokens) => {
  const output: Token[] = [];
  let run: Array<{ character: string; start: number; end: number }> = [];
  const flush = () => {
    if (run.length === 1) {
      const only = run[0] as (typeof run)[number];
      output.push({ term: only.character, start: only.start, end: only.end, type: '<SINGLE>' });
    }
    for (let index = 0; index + 1 < run.length; index += 1) {
      const left = run[index] as (typeof run)[number];
      const right = run[index + 1] as (typeof run)[number];
      output.push({
        term: left.character + right.character,
        start: left.start,
        end: right.end,
        type: '<DOUBLE>',
      });
    }
    run = [];
  };
  for (const token of tokens) {
    if (!cjkTypes.has(token.type)) {
      flush();
      output.push(token);
      continue;
    }
    if (run.length > 0 && (run.at(-1) as (typeof run)[number]).end !== token.start) flush();
    const characters = [...token.term];
    characters.forEach((character, index) => {
      // Offsets of the characters of a multi-character token, as the filter spreads them.
      const start =
        index === 0 ? token.start : token.start + characters.slice(0, index).join('').length;
      const end = index === characters.length - 1 ? token.end : start + character.length;
      run.push({ character, start, end });
    });
  }
  flush();
  return output;
};

/** Lucene's EnglishMinimalStemmer (Harman's S-stemmer): plurals only. */
export function minimalEnglishStem(term: string): string {
  const length = term.length;
  if (length < 3 || term[length - 1] !== 's') return term;
  const before = term[length - 2];
  if (before === 'u' || before === 's') return term;
  if (before === 'e') {
    const third = term[length - 3];
    if (length > 3 && third === 'i' && term[length - 4] !== 'a' && term[length - 4] !== 'e')
      return `${term.slice(0, length - 3)}y`;
    if (third === 'i' || third === 'a' || third === 'o' || third === 'e') return term;
  }
  return term.slice(0, length - 1);
}

const builtInFilters: Record<string, TokenFilter> = {
  cjk_width: cjkWidth,
  lowercase,
  cjk_bigram: cjkBigram,
};

/** A filter defined in `index.analysis.filter`: stop words or the minimal English stemmer. */
function customFilter(name: string, definition: Record<string, unknown>): TokenFilter {
  if (definition.type === 'stop') {
    const words = definition.stopwords;
    const set =
      words === '_english_' || words === undefined
        ? englishStopWords
        : Array.isArray(words)
          ? new Set(words.map(String))
          : undefined;
    if (
      set === undefined ||
      Object.keys(definition).some((key) => !['type', 'stopwords'].includes(key))
    )
      throw FakeOpenSearchError.unsupported(
        `stop filter [${name}] with ${JSON.stringify(definition)}`,
      );
    return (tokens) => tokens.filter((token) => !set.has(token.term));
  }
  if (definition.type === 'stemmer' && definition.language === 'minimal_english')
    return (tokens) => tokens.map((token) => ({ ...token, term: minimalEnglishStem(token.term) }));
  throw FakeOpenSearchError.unsupported(
    `token filter [${name}] of type [${String(definition.type)}]`,
  );
}

/** The analysis section of index settings the fake understands (refusing the rest). */
export interface AnalysisSettings {
  analyzer?: Record<string, Record<string, unknown>>;
  char_filter?: Record<string, Record<string, unknown>>;
  filter?: Record<string, Record<string, unknown>>;
  tokenizer?: Record<string, Record<string, unknown>>;
}

/**
 * Builds the named analyzer from index settings: `standard` (the default), or a custom
 * analyzer on the standard tokenizer with `cjk_width`, `lowercase`, `cjk_bigram`, stop and
 * `minimal_english` stemmer filters. Anything else (nori included) is refused with a 400.
 */
export function buildAnalyzer(
  name: string,
  analysis: AnalysisSettings,
  plugins: Set<string>,
): Analyzer {
  if (name === 'standard')
    return (text) => lowercase(standardTokenize(text)).map((token) => token.term);
  const definition = analysis.analyzer?.[name];
  if (definition === undefined)
    throw new FakeOpenSearchError(
      400,
      'mapper_parsing_exception',
      `analyzer [${name}] has not been configured in mappings`,
    );
  allowKeys(definition, ['type', 'tokenizer', 'filter', 'char_filter'], `analyzer [${name}]`);
  const tokenizerName = String(definition.tokenizer);
  const tokenizer = analysis.tokenizer?.[tokenizerName];
  const tokenizerType = tokenizer ? String(tokenizer.type) : tokenizerName;
  if (tokenizerType.startsWith('nori') && !plugins.has('analysis-nori'))
    throw new FakeOpenSearchError(
      400,
      'illegal_argument_exception',
      `Unknown tokenizer type [${tokenizerType}] for [${tokenizerName}]`,
    );
  if (definition.type !== 'custom' || tokenizerType !== 'standard')
    throw FakeOpenSearchError.unsupported(`analyzer [${name}] with tokenizer [${tokenizerType}]`);
  const charFilters = ((definition.char_filter as unknown[]) ?? []).map((filter) =>
    charFilter(String(filter), analysis.char_filter?.[String(filter)]),
  );
  const filters = ((definition.filter as unknown[]) ?? []).map((filter) => {
    const filterName = String(filter);
    const custom = analysis.filter?.[filterName];
    if (custom) return customFilter(filterName, custom);
    const builtIn = builtInFilters[filterName];
    if (builtIn === undefined)
      throw FakeOpenSearchError.unsupported(`token filter [${filterName}]`);
    return builtIn;
  });
  return (text) => {
    const filtered = charFilters.reduce((value, filter) => filter(value), text);
    return filters
      .reduce((tokens, filter) => filter(tokens), standardTokenize(filtered))
      .map((token) => token.term);
  };
}

/**
 * A `pattern_replace` char filter. Its pattern runs as a JavaScript regular expression,
 * which reads the ranges and look-arounds Yeoul sends as Java does.
 */
function charFilter(
  name: string,
  definition: Record<string, unknown> | undefined,
): (text: string) => string {
  if (definition === undefined)
    throw new FakeOpenSearchError(
      400,
      'illegal_argument_exception',
      `failed to find char_filter under name [${name}]`,
    );
  const { type, pattern, replacement } = allowKeys(
    definition,
    ['type', 'pattern', 'replacement'],
    `char_filter [${name}]`,
  );
  if (type !== 'pattern_replace' || typeof pattern !== 'string')
    throw FakeOpenSearchError.unsupported(`char_filter [${name}] of type [${String(type)}]`);
  const expression = new RegExp(pattern, 'gu');
  return (text) => text.replace(expression, String(replacement ?? ''));
}
