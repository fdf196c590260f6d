import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { applyMigrations } from '../core/index.ts';
import { type PostgresServer, startPostgresServer } from '../testing/internal/index.ts';
import { knowledgeMigrations } from './postgres-migrations.ts';
import { PostgresRetriever } from './postgres-retriever.ts';
import { SqliteRetriever } from './sqlite-retriever.ts';
import type { Retriever } from './types.ts';

/** A QA corpus of bench/corpora: paragraphs and questions whose answer paragraph is known. */
interface QaCorpus {
  paragraphs: Array<{ id: string; title: string; text: string }>;
  questions: Array<{ paragraphId: string; question: string }>;
}

function loadCorpus(name: string): QaCorpus {
  const path = join(import.meta.dirname, '..', '..', 'bench', 'corpora', `${name}-qa.json`);
  return JSON.parse(readFileSync(path, 'utf8')) as QaCorpus;
}

/** Stores every paragraph as a one-chunk document, as bench/rag.ts does. */
async function ingest(retriever: Retriever, corpus: QaCorpus): Promise<void> {
  for (const paragraph of corpus.paragraphs) {
    await retriever.upsertDocument(
      {
        id: paragraph.id,
        title: paragraph.title,
        source: null,
        contentHash: paragraph.id,
        metadata: {},
        chunkCount: 1,
        updatedAt: 0,
      },
      [
        {
          id: `${paragraph.id}#0`,
          documentId: paragraph.id,
          position: 0,
          heading: '',
          text: paragraph.text,
          tokenCount: 0,
        },
      ],
    );
  }
}

/** Recall@1 and recall@5 of keyword search over every question of the corpus. */
async function recall(retriever: Retriever, corpus: QaCorpus) {
  let atOne = 0;
  let atFive = 0;
  for (const question of corpus.questions) {
    const hits = await retriever.search(question.question, { k: 5 });
    const rank = hits.findIndex((hit) => hit.documentId === question.paragraphId);
    if (rank === 0) atOne += 1;
    if (rank >= 0) atFive += 1;
  }
  const count = corpus.questions.length;
  return { recallAt1: atOne / count, recallAt5: atFive / count };
}

let server: PostgresServer;
before(async () => {
  server = await startPostgresServer();
});
after(() => server.stop());

describe('PostgreSQL retriever recall', () => {
  for (const name of ['ko', 'en', 'ko-wiki']) {
    it(`matches SQLite's recall@1 and recall@5 within 0.01 on the whole ${name} corpus`, async () => {
      const corpus = loadCorpus(name);
      const postgres = await PostgresRetriever.connect({ url: await server.createDatabase() });
      await applyMigrations(postgres.pool, knowledgeMigrations);
      const sqlite = new SqliteRetriever();
      await Promise.all([ingest(postgres, corpus), ingest(sqlite, corpus)]);
      const [ours, embedded] = [await recall(postgres, corpus), await recall(sqlite, corpus)];
      console.log(
        `${name} (${corpus.paragraphs.length} paragraphs, ${corpus.questions.length} questions): ` +
          `sqlite r@1 ${embedded.recallAt1.toFixed(3)} r@5 ${embedded.recallAt5.toFixed(3)}; ` +
          `postgres r@1 ${ours.recallAt1.toFixed(3)} r@5 ${ours.recallAt5.toFixed(3)}`,
      );
      assert.ok(
        Math.abs(ours.recallAt1 - embedded.recallAt1) <= 0.01,
        JSON.stringify({ ours, embedded }),
      );
      assert.ok(
        Math.abs(ours.recallAt5 - embedded.recallAt5) <= 0.01,
        JSON.stringify({ ours, embedded }),
      );
      await Promise.all([postgres.close(), sqlite.close()]);
    });
  }
});
