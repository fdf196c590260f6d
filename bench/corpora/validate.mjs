// Validates the retrieval-evaluation corpora in this folder.
// Usage: node bench/corpora/validate.mjs
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const MIN_PARAGRAPHS = 240;
const MIN_QUESTIONS = 300;
let failed = false;

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

for (const lang of ['ko', 'en']) {
  const file = join(here, `${lang}-qa.json`);
  const data = JSON.parse(readFileSync(file, 'utf8'));
  if (data.language !== lang) fail(`${lang}: language field is ${data.language}`);
  if (typeof data.source !== 'string' || !data.source) fail(`${lang}: missing source`);

  const ids = new Set();
  const paragraphs = new Map();
  const texts = new Set();
  for (const p of data.paragraphs) {
    if (ids.has(p.id)) fail(`${lang}: duplicate id ${p.id}`);
    ids.add(p.id);
    if (!p.title || !p.text) fail(`${lang}: ${p.id} lacks title or text`);
    if (texts.has(p.text)) fail(`${lang}: ${p.id} duplicates another paragraph`);
    texts.add(p.text);
    paragraphs.set(p.id, p);
  }

  const perParagraph = new Map();
  const questionTexts = new Set();
  const warnings = [];
  for (const q of data.questions) {
    if (ids.has(q.id)) fail(`${lang}: duplicate id ${q.id}`);
    ids.add(q.id);
    const p = paragraphs.get(q.paragraphId);
    if (!p) {
      fail(`${lang}: ${q.id} points to missing paragraph ${q.paragraphId}`);
      continue;
    }
    if (!q.answer || !p.text.includes(q.answer))
      fail(`${lang}: ${q.id} answer not in paragraph: ${JSON.stringify(q.answer)}`);
    if (questionTexts.has(q.question)) fail(`${lang}: ${q.id} duplicate question text`);
    questionTexts.add(q.question);
    perParagraph.set(q.paragraphId, (perParagraph.get(q.paragraphId) ?? 0) + 1);
    const run = longestSharedRun(q.question, p.text, lang);
    if (lang === 'ko' ? run >= 20 : run >= 7)
      warnings.push(
        `${q.id} shares a run of ${run} ${lang === 'ko' ? 'chars' : 'words'} with its paragraph`,
      );
  }
  for (const [pid, n] of perParagraph)
    if (n > 2) fail(`${lang}: ${pid} has ${n} questions (max 2)`);
  const unasked = [...paragraphs.keys()].filter((id) => !perParagraph.has(id));

  const lengths = data.paragraphs.map((p) =>
    lang === 'ko' ? [...p.text].length : p.text.split(/\s+/).length,
  );
  const [lo, hi] = lang === 'ko' ? [200, 450] : [60, 120];
  const outOfRange = lengths.filter((n) => n < lo || n > hi).length;
  if (data.paragraphs.length < MIN_PARAGRAPHS)
    fail(`${lang}: only ${data.paragraphs.length} paragraphs`);
  if (data.questions.length < MIN_QUESTIONS)
    fail(`${lang}: only ${data.questions.length} questions`);

  const unit = lang === 'ko' ? 'chars' : 'words';
  console.log(
    `${lang}: ${data.paragraphs.length} paragraphs, ${data.questions.length} questions, ` +
      `${unasked.length} paragraphs without questions, paragraph length ` +
      `${Math.min(...lengths)}-${Math.max(...lengths)} ${unit} ` +
      `(${outOfRange} outside ${lo}-${hi}), ${warnings.length} copy warnings`,
  );
  for (const w of warnings) console.log(`  warn ${w}`);
}

if (failed) process.exit(1);
console.log('OK');
