// `npm run bench:rag [-- --quick]`: retrieval quality and speed of Yeoul's knowledge base on
// Korean and English QA corpora (bench/corpora: short paragraphs `ko`, `en`, and Wikipedia-
// length Korean articles `ko-wiki`), side by side with MiniSearch and Orama on their default
// settings, plus a scale run on 100k synthetic chunks.
// Progress goes to stderr; the last line on stdout is one JSON object with `targets`.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import MiniSearch from 'minisearch';
import { KnowledgeBase, SqliteRetriever } from '../src/knowledge/index.ts';
import { loadCorpus, type QaCorpus, scoreRankings, zipfChunks } from './lib/qa-corpus.ts';
import { summarize, target } from './lib/stats.ts';

const quick = process.argv.includes('--quick');
const scaleChunks = quick ? 10_000 : 100_000;
const log = (...parts: unknown[]) => console.error('[rag]', ...parts);
const directory = mkdtempSync(join(tmpdir(), 'yeoul-bench-rag-'));

interface Engine {
  name: string;
  build(corpus: QaCorpus): Promise<void>;
  /** Paragraph ids, best first (at most 10). */
  query(question: string): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * Yeoul's knowledge base as the API ingests documents (`POST /api/documents`): each
 * paragraph one document, cut into chunks of at most 300 tokens; a search returns chunks,
 * so a long paragraph may take more than one of the ranks.
 */
function yeoul(path: string): Engine {
  const retriever = new SqliteRetriever({ path });
  const knowledge = new KnowledgeBase(retriever);
  return {
    name: 'yeoul',
    async build(corpus) {
      await knowledge.addDocuments(
        corpus.paragraphs.map((paragraph) => ({
          id: paragraph.id,
          title: paragraph.title,
          text: paragraph.text,
        })),
      );
    },
    async query(question) {
      return (await knowledge.search(question, { k: 10 })).map((hit) => hit.documentId);
    },
    close: () => retriever.close(),
  };
}

function miniSearch(): Engine {
  const index = new MiniSearch<{ id: string; title: string; text: string }>({
    fields: ['title', 'text'],
  });
  return {
    name: 'minisearch',
    async build(corpus) {
      index.addAll(corpus.paragraphs);
    },
    async query(question) {
      return index
        .search(question)
        .slice(0, 10)
        .map((result) => String(result.id));
    },
    close: async () => undefined,
  };
}

function orama(): Engine {
  // Orama's generic types recurse too deep for the checker here; its own API is used as documented.
  // biome-ignore lint/suspicious/noExplicitAny: see above
  let database: any;
  return {
    name: 'orama',
    async build(corpus) {
      database = create({ schema: { pid: 'string', title: 'string', text: 'string' } as const });
      await insertMultiple(
        database,
        corpus.paragraphs.map((paragraph) => ({
          pid: paragraph.id,
          title: paragraph.title,
          text: paragraph.text,
        })),
      );
    },
    async query(question) {
      const result = await oramaSearch(database, { term: question, limit: 10 });
      return result.hits.map((hit: { document: { pid: string } }) => hit.document.pid);
    },
    close: async () => undefined,
  };
}

async function evaluate(engine: Engine, corpus: QaCorpus) {
  const started = performance.now();
  await engine.build(corpus);
  const buildMs = Math.round(performance.now() - started);
  const rankings: string[][] = [];
  const latencies: number[] = [];
  for (const question of corpus.questions) {
    const begin = performance.now();
    rankings.push(await engine.query(question.question));
    latencies.push(performance.now() - begin);
  }
  await engine.close();
  const quality = scoreRankings(corpus, rankings);
  const latency = summarize(latencies);
  log(
    `${corpus.name} ${engine.name}: r@1 ${quality.recallAt1}, r@5 ${quality.recallAt5}, MRR@10 ${quality.mrrAt10}, p50 ${latency.p50} ms, build ${buildMs} ms`,
  );
  return { ...quality, p50Ms: latency.p50, p99Ms: latency.p99, buildMs };
}

/** Query latency over `chunks` chunks: the corpora plus synthetic filler, queried with every question. */
async function latencyAt(chunks: number, corpora: QaCorpus[]) {
  const path = join(directory, `scale-${chunks}.sqlite`);
  const retriever = new SqliteRetriever({ path });
  const real = corpora.flatMap((corpus) => corpus.paragraphs);
  const filler = zipfChunks(Math.max(0, chunks - real.length), corpora);
  const started = performance.now();
  const all = [...real, ...filler];
  const perDocument = 10;
  for (let start = 0; start < all.length; start += perDocument) {
    const group = all.slice(start, start + perDocument);
    const documentId = `group-${start / perDocument}`;
    await retriever.upsertDocument(
      {
        id: documentId,
        title: group[0]?.title ?? '',
        source: null,
        contentHash: documentId,
        metadata: {},
        chunkCount: group.length,
        updatedAt: 0,
      },
      group.map((paragraph, position) => ({
        id: paragraph.id,
        documentId,
        position,
        heading: paragraph.title,
        text: paragraph.text,
        tokenCount: 0,
      })),
    );
  }
  const buildMs = Math.round(performance.now() - started);
  const questions = corpora.flatMap((corpus) =>
    corpus.questions.map((question) => question.question),
  );
  for (const question of questions.slice(0, 50)) await retriever.search(question, { k: 5 });
  const latencies: number[] = [];
  for (const question of questions) {
    const begin = performance.now();
    await retriever.search(question, { k: 5 });
    latencies.push(performance.now() - begin);
  }
  await retriever.close();
  const bytes = ['', '-wal', '-shm'].reduce((sum, suffix) => {
    try {
      return sum + statSync(path + suffix).size;
    } catch {
      return sum;
    }
  }, 0);
  const latency = summarize(latencies);
  log(
    `${chunks} chunks: p50 ${latency.p50} ms, p99 ${latency.p99} ms, index ${(bytes / 1e6).toFixed(1)} MB, build ${buildMs} ms`,
  );
  return { chunks: all.length, p50Ms: latency.p50, p99Ms: latency.p99, bytes, buildMs };
}

try {
  const corpora = [loadCorpus('ko'), loadCorpus('en')];
  const wiki = loadCorpus('ko-wiki');
  const quality: Record<string, Record<string, unknown>> = {};
  for (const corpus of [...corpora, wiki]) {
    quality[corpus.name] = {
      paragraphs: corpus.paragraphs.length,
      questions: corpus.questions.length,
      yeoul: await evaluate(yeoul(join(directory, `${corpus.name}.sqlite`)), corpus),
      minisearch: await evaluate(miniSearch(), corpus),
      orama: await evaluate(orama(), corpus),
    };
  }
  const at1k = await latencyAt(1_000, corpora);
  const atScale = await latencyAt(scaleChunks, corpora);
  // Latency as before: the short corpora's paragraphs and questions.
  const ko = quality.ko?.yeoul as { recallAt1: number; recallAt5: number };
  const koWiki = quality['ko-wiki']?.yeoul as { recallAt1: number; recallAt5: number };
  console.log(
    JSON.stringify({
      bench: 'rag',
      quick,
      quality,
      scale: { at1k, [`at${scaleChunks}`]: atScale },
      targets: {
        koRecallAt5: target(ko.recallAt5, 0.985, 'higher'),
        koRecallAt1: target(ko.recallAt1, 0.9, 'higher'),
        koWikiRecallAt5: target(koWiki.recallAt5, 0.985, 'higher'),
        koWikiRecallAt1: target(koWiki.recallAt1, 0.9, 'higher'),
        p50Ms1k: target(at1k.p50Ms, 2, 'lower'),
        [quick ? 'p50Ms10k' : 'p50Ms100k']: target(atScale.p50Ms, 20, 'lower'),
      },
    }),
  );
} finally {
  rmSync(directory, { recursive: true, force: true });
}
