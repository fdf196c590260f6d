// Validates the retrieval-evaluation corpora in this folder.
// Usage: node bench/corpora/validate.mjs
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
let failed = false;

// Each corpus: its language, paragraph length range (characters for Korean, words for
// English), how many paragraphs and questions it needs at least, and at most how many
// questions one paragraph may have. ko-wiki has Wikipedia-length paragraphs, several per
// article (`minTitleShare` of its paragraphs share their title with another paragraph).
const corpora = [
  {
    name: 'ko',
    lang: 'ko',
    length: [200, 450],
    minParagraphs: 240,
    minQuestions: 300,
    perParagraph: 2,
  },
  {
    name: 'en',
    lang: 'en',
    length: [60, 120],
    minParagraphs: 240,
    minQuestions: 300,
    perParagraph: 2,
  },
  {
    name: 'ko-wiki',
    lang: 'ko',
    length: [400, 1500],
    minParagraphs: 90,
    minQuestions: 1000,
    perParagraph: 30,
    minTitleShare: 0.9,
  },
];

function fail(msg) {
  failed = true;
  console.error(`ERROR ${msg}`);
}

// Longest run of consecutive tokens shared by question and paragraph
// (characters for Korean, words for English): a paraphrase heuristic.
function longestSharedRun(q, text, lang) {
  const tok = (s) =>
    lang === 'ko' ? [...s.replace(/\s+/g, ' ')] : (s.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []);
  const a = tok(q);
  const b = tok(text);
  let best = 0;
  const prev = new Array(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = a[i - 1] === b[j - 1] ? diag + 1 : 0;
      if (prev[j] > best) best = prev[j];
      diag = tmp;
    }
  }
  return best;
}

for (const corpus of corpora) {
  const { lang } = corpus;
  const file = join(here, `${corpus.name}-qa.json`);
  const data = JSON.parse(readFileSync(file, 'utf8'));
  if (data.language !== lang) fail(`${corpus.name}: language field is ${data.language}`);
  if (typeof data.source !== 'string' || !data.source) fail(`${corpus.name}: missing source`);

  const ids = new Set();
  const paragraphs = new Map();
  const texts = new Set();
  for (const p of data.paragraphs) {
    if (ids.has(p.id)) fail(`${corpus.name}: duplicate id ${p.id}`);
    ids.add(p.id);
    if (!p.title || !p.text) fail(`${corpus.name}: ${p.id} lacks title or text`);
    if (texts.has(p.text)) fail(`${corpus.name}: ${p.id} duplicates another paragraph`);
    texts.add(p.text);
    paragraphs.set(p.id, p);
  }

  const perParagraph = new Map();
  const questionTexts = new Set();
  const warnings = [];
  let sharedRuns = 0;
  for (const q of data.questions) {
    if (ids.has(q.id)) fail(`${corpus.name}: duplicate id ${q.id}`);
    ids.add(q.id);
    const p = paragraphs.get(q.paragraphId);
    if (!p) {
      fail(`${corpus.name}: ${q.id} points to missing paragraph ${q.paragraphId}`);
      continue;
    }
    if (!q.answer || !p.text.includes(q.answer))
      fail(`${corpus.name}: ${q.id} answer not in paragraph: ${JSON.stringify(q.answer)}`);
    if (questionTexts.has(q.question)) fail(`${corpus.name}: ${q.id} duplicate question text`);
    questionTexts.add(q.question);
    perParagraph.set(q.paragraphId, (perParagraph.get(q.paragraphId) ?? 0) + 1);
    const run = longestSharedRun(q.question, p.text, lang);
    sharedRuns += run;
    if (lang === 'ko' ? run >= 20 : run >= 7)
      warnings.push(
        `${q.id} shares a run of ${run} ${lang === 'ko' ? 'chars' : 'words'} with its paragraph`,
      );
  }
  for (const [pid, n] of perParagraph)
    if (n > corpus.perParagraph)
      fail(`${corpus.name}: ${pid} has ${n} questions (max ${corpus.perParagraph})`);
  const unasked = [...paragraphs.keys()].filter((id) => !perParagraph.has(id));

  const lengths = data.paragraphs.map((p) =>
    lang === 'ko' ? [...p.text].length : p.text.split(/\s+/).length,
  );
  const [lo, hi] = corpus.length;
  const outOfRange = lengths.filter((n) => n < lo || n > hi).length;
  if (corpus.minTitleShare !== undefined) {
    const perTitle = new Map();
    for (const p of data.paragraphs) perTitle.set(p.title, (perTitle.get(p.title) ?? 0) + 1);
    const shared = data.paragraphs.filter((p) => perTitle.get(p.title) > 1).length;
    if (shared / data.paragraphs.length < corpus.minTitleShare)
      fail(`${corpus.name}: only ${shared} paragraphs share their title with another`);
    if (outOfRange > 0)
      fail(
        `${corpus.name}: ${outOfRange} paragraphs outside ${lo}-${hi} ${lang === 'ko' ? 'chars' : 'words'}`,
      );
  }
  if (data.paragraphs.length < corpus.minParagraphs)
    fail(`${corpus.name}: only ${data.paragraphs.length} paragraphs`);
  if (data.questions.length < corpus.minQuestions)
    fail(`${corpus.name}: only ${data.questions.length} questions`);

  const unit = lang === 'ko' ? 'chars' : 'words';
  console.log(
    `${corpus.name}: ${data.paragraphs.length} paragraphs, ${data.questions.length} questions, ` +
      `${unasked.length} paragraphs without questions, paragraph length ` +
      `${Math.min(...lengths)}-${Math.max(...lengths)} ${unit} ` +
      `(${outOfRange} outside ${lo}-${hi}), ${warnings.length} copy warnings, ` +
      `mean longest run shared with the paragraph ${(sharedRuns / data.questions.length).toFixed(1)} ${unit}`,
  );
  for (const w of warnings) console.log(`  warn ${w}`);
}

if (failed) process.exit(1);
console.log('OK');
