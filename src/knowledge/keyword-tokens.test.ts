import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, it } from 'node:test';
import { indexTerms, queryTerms } from './analyzer.ts';
import { keywordTokens } from './keyword-tokens.ts';
import { porterStem } from './porter-stem.ts';

/** What SQLite's FTS5 (the SQLite retriever's tokenizer) makes of each term. */
function fts5Tokens(terms: string[]): string[][] {
  const database = new DatabaseSync(':memory:');
  database.exec(
    "CREATE VIRTUAL TABLE terms USING fts5(term, tokenize = 'porter unicode61 remove_diacritics 2');" +
      "CREATE VIRTUAL TABLE vocabulary USING fts5vocab(terms, 'instance');",
  );
  const insert = database.prepare('INSERT INTO terms (rowid, term) VALUES (?, ?)');
  database.exec('BEGIN');
  for (const [index, term] of terms.entries()) insert.run(index + 1, term);
  database.exec('COMMIT');
  const tokens: string[][] = terms.map(() => []);
  const rows = database
    .prepare('SELECT doc, term FROM vocabulary ORDER BY doc, "offset"')
    .all() as Array<{ doc: number; term: string }>;
  for (const row of rows) tokens[row.doc - 1]?.push(row.term);
  database.close();
  return tokens;
}

function corpusTerms(language: 'ko' | 'en'): string[] {
  const path = join(import.meta.dirname, '..', '..', 'bench', 'corpora', `${language}-qa.json`);
  const corpus = JSON.parse(readFileSync(path, 'utf8')) as {
    paragraphs: Array<{ title: string; text: string }>;
    questions: Array<{ question: string }>;
  };
  return [
    ...corpus.paragraphs.flatMap((paragraph) =>
      indexTerms(`${paragraph.title}\n${paragraph.text}`),
    ),
    ...corpus.questions.flatMap((question) => queryTerms(question.question)),
  ];
}

/** Seeded made-up words ending in every suffix the stemmer knows, to reach each rule. */
function madeUpWords(count: number): string[] {
  let state = 7;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const letters = 'aeiouybcdglmnrstzwx';
  const suffixes = (
    'ational tional enci anci izer logi bli alli entli eli ousli ization ation ator alism iveness ' +
    'fulness ousness aliti iviti biliti ical ness icate iciti ful ative alize al ance ence er ic ' +
    'able ible ant ement ment ent ion ou ism ate iti ous ive ize s es ies sses ss ed eed ing y ll e'
  ).split(' ');
  return Array.from({ length: count }, () => {
    const stem = Array.from(
      { length: 1 + Math.floor(random() * 7) },
      () => letters[Math.floor(random() * letters.length)],
    ).join('');
    return stem + (suffixes[Math.floor(random() * suffixes.length)] ?? '');
  });
}

describe('keywordTokens', () => {
  it('makes exactly the tokens SQLite’s FTS5 makes of the Korean and English corpora’s terms', () => {
    const terms = [...new Set([...corpusTerms('ko'), ...corpusTerms('en')])];
    const expected = fts5Tokens(terms);
    const different = terms.filter(
      (term, index) => keywordTokens([term]).join(' ') !== expected[index]?.join(' '),
    );
    assert.ok(terms.length > 10_000, `${terms.length} terms`);
    assert.deepEqual(different.slice(0, 20), []);
  });

  it('stems like FTS5’s porter tokenizer for words that reach every rule', () => {
    const words = [
      ...madeUpWords(30_000),
      ...'caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated troubled sized hopping tanned falling hissing fizzed failing filing happy sky relational conditional rational valenci hesitanci digitizer conformabli radicalli differentli vileli analogousli vietnamization predication operator feudalism decisiveness hopefulness callousness formaliti sensitiviti sensibiliti triplicate formative formalize electriciti electrical hopeful goodness revival allowance inference airliner gyroscopic adjustable defensible irritant replacement adjustment dependent adoption homologou communism activate angulariti homologous effective bowdlerize probate rate cease controll roll generalizations oscillators sses ies eed'.split(
        ' ',
      ),
    ];
    const expected = fts5Tokens(words);
    const different = words.filter((word, index) => porterStem(word) !== expected[index]?.[0]);
    assert.deepEqual(different.slice(0, 20), []);
  });

  it('folds accents and splits where unicode61 does, and leaves Hangul alone', () => {
    const terms = [
      'résumés',
      'naïve',
      'ア・イ',
      '휴가정책',
      '정책',
      'ｆｕｌｌｗｉｄｔｈ',
      'ǅemal',
      'x'.repeat(70),
    ];
    assert.deepEqual(
      terms.map((term) => keywordTokens([term])),
      fts5Tokens(terms),
    );
  });
});
