/**
 * The Porter stemmer exactly as SQLite's FTS5 `porter` tokenizer applies it, so an index
 * outside SQLite (PostgreSQL) stems words to the same terms as the embedded one. It works on
 * the word's UTF-8 bytes like FTS5 does: words under 3 or over 64 bytes stay as they are, and
 * non-ASCII bytes count as consonants (Hangul and CJK terms therefore never change).
 */

type Rule = readonly [suffix: string, replacement: string];

/** Step 2 (applied when the stem has m > 0): the first suffix that matches decides. */
const step2: readonly Rule[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['logi', 'log'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
];

/** Step 3 (m > 0). */
const step3: readonly Rule[] = [
  ['ical', 'ic'],
  ['ness', ''],
  ['icate', 'ic'],
  ['iciti', 'ic'],
  ['ful', ''],
  ['ative', ''],
  ['alize', 'al'],
];

/** Step 4 (m > 1; `ion` also needs the stem to end in s or t). */
const step4 =
  'al ance ence er ic able ible ant ement ment ent ion ou ism ate iti ous ive ize'.split(' ');

function isVowel(character: string | undefined, afterConsonant: boolean): boolean {
  return (
    character === 'a' ||
    character === 'e' ||
    character === 'i' ||
    character === 'o' ||
    character === 'u' ||
    (afterConsonant && character === 'y')
  );
}

/** For each position: is it a consonant ('y' is a vowel after a consonant). */
function consonants(word: string): boolean[] {
  const flags: boolean[] = [];
  for (let index = 0; index < word.length; index += 1) {
    flags.push(!isVowel(word[index], flags[index - 1] ?? false));
  }
  return flags;
}

/** Porter's measure m: how many vowel-consonant sequences the stem has. */
function measure(stem: string): number {
  const flags = consonants(stem);
  let count = 0;
  for (let index = 1; index < flags.length; index += 1) {
    if (flags[index] && !flags[index - 1]) count += 1;
  }
  return count;
}

/** *v*: a vowel somewhere (FTS5 counts 'y' as one anywhere but first). */
function hasVowel(stem: string): boolean {
  for (let index = 0; index < stem.length; index += 1) {
    if (isVowel(stem[index], index > 0)) return true;
  }
  return false;
}

/** *o: ends consonant-vowel-consonant, the last not w, x or y. */
function endsCvc(stem: string): boolean {
  const last = stem[stem.length - 1];
  if (stem.length < 3 || last === 'w' || last === 'x' || last === 'y') return false;
  const flags = consonants(stem).slice(-3);
  return flags[0] === true && flags[1] === false && flags[2] === true;
}

/** The first rule whose suffix ends the word (leaving at least one letter) and whether it applied. */
function applyRule(
  word: string,
  suffixes: readonly (readonly [string, string])[],
  condition: (stem: string, suffix: string) => boolean,
): string {
  for (const [suffix, replacement] of suffixes) {
    if (word.length > suffix.length && word.endsWith(suffix)) {
      const stem = word.slice(0, -suffix.length);
      return condition(stem, suffix) ? stem + replacement : word;
    }
  }
  return word;
}

function step1(word: string): string {
  let stem = word;
  if (stem.endsWith('s')) {
    if ((stem.length > 4 && stem.endsWith('sses')) || (stem.length > 3 && stem.endsWith('ies'))) {
      stem = stem.slice(0, -2);
    } else if (!stem.endsWith('ss')) stem = stem.slice(0, -1);
  }
  let stripped = false;
  if (stem.length > 3 && stem.endsWith('eed')) {
    if (measure(stem.slice(0, -3)) > 0) stem = stem.slice(0, -1);
  } else {
    for (const suffix of ['ed', 'ing']) {
      if (stem.length > suffix.length && stem.endsWith(suffix)) {
        if (hasVowel(stem.slice(0, -suffix.length))) {
          stem = stem.slice(0, -suffix.length);
          stripped = true;
        }
        break;
      }
    }
  }
  if (stripped) {
    const last = stem[stem.length - 1];
    if (stem.length > 2 && (stem.endsWith('at') || stem.endsWith('bl') || stem.endsWith('iz'))) {
      stem += 'e';
    } else if (
      !isVowel(last, false) &&
      last !== 'l' &&
      last !== 's' &&
      last !== 'z' &&
      last === stem[stem.length - 2]
    ) {
      stem = stem.slice(0, -1);
    } else if (measure(stem) === 1 && endsCvc(stem)) {
      stem += 'e';
    }
  }
  if (stem.endsWith('y') && hasVowel(stem.slice(0, -1))) stem = `${stem.slice(0, -1)}i`;
  return stem;
}

/** Stems one lower-case word the way FTS5's `porter` tokenizer does. */
export function porterStem(word: string): string {
  const bytes = Buffer.from(word, 'utf8');
  if (bytes.length < 3 || bytes.length > 64) return word;
  // One character per byte, so suffixes and lengths are counted in bytes like FTS5's.
  let stem = step1(bytes.toString('latin1'));
  stem = applyRule(stem, step2, (base) => measure(base) > 0);
  stem = applyRule(stem, step3, (base) => measure(base) > 0);
  stem = applyRule(
    stem,
    step4.map((suffix) => [suffix, ''] as const),
    (base, suffix) => measure(base) > 1 && (suffix !== 'ion' || /[st]$/.test(base)),
  );
  if (stem.endsWith('e')) {
    const base = stem.slice(0, -1);
    const m = measure(base);
    if (m > 1 || (m === 1 && !endsCvc(base))) stem = base;
  }
  if (stem.endsWith('ll') && measure(stem.slice(0, -1)) > 1) stem = stem.slice(0, -1);
  return Buffer.from(stem, 'latin1').toString('utf8');
}
