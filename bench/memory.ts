// `npm run bench:memory`: long-term memory recall latency (SQLite store; keyword search, and
// vectors with a deterministic stand-in embedder) for one owner with 10 000 items and for
// 100 owners × 1 000 items; and retention: pruning a threads database of 10 000 sessions,
// half of them idle longer than the TTL (time taken, bytes before and after).
// Progress goes to stderr; the last line on stdout is one JSON object with `targets`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteMemoryStore } from '../src/memory-store/index.ts';
import type { Embedder } from '../src/models/index.ts';
import { createRuntime, pruneSessions, readServerConfig } from '../src/server/index.ts';
import { ratio, summarize, target } from './lib/stats.ts';

const log = (...parts: unknown[]) => console.error('[memory]', ...parts);
const root = mkdtempSync(join(tmpdir(), 'yeoul-bench-memory-'));

/** A deterministic pseudo-random sequence, so every run measures the same data. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const syllables =
  '가나다라마바사아자차카타파하결제팀회의예산일정보고서채용교육출장보안배포고객'.split('');
const next = random(7);
const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
/** 2 000 words: Korean two- and three-syllable words and English ones. */
const vocabulary = Array.from({ length: 2_000 }, (_, index) =>
  index % 2 === 0
    ? Array.from({ length: 2 + (index % 3 === 0 ? 1 : 0) }, () => pick(syllables)).join('')
    : `term${index.toString(36)}`,
);
const sentence = (words: number) => Array.from({ length: words }, () => pick(vocabulary)).join(' ');

/** Maps text to 256 dimensions by hashing its words: a stand-in for an embedding model. */
const hashEmbedder: Embedder = {
  name: 'bench:hash',
  async embed(texts) {
    return texts.map((text) => {
      const vector = new Array<number>(256).fill(0);
      for (const word of text.split(/\s+/)) {
        let hash = 2166136261;
        for (const character of word)
          hash = Math.imul(hash ^ (character.codePointAt(0) ?? 0), 16777619);
        const slot = (hash >>> 0) % 256;
        vector[slot] = (vector[slot] ?? 0) + 1;
      }
      return vector;
    });
  },
};

/** Fills a store and measures `queries` searches of one or two words (milliseconds). */
async function recall(options: {
  owners: number;
  itemsPerOwner: number;
  embedder?: Embedder;
  queries: number;
}) {
  const path = join(
    root,
    `memory-${options.owners}-${options.embedder ? 'vector' : 'keyword'}.sqlite`,
  );
  const store = openSqliteMemoryStore({ path, embedder: options.embedder });
  const started = performance.now();
  for (let item = 0; item < options.itemsPerOwner; item += 1) {
    for (let owner = 0; owner < options.owners; owner += 1) {
      await store.put(
        `owner-${owner}`,
        pick(['profile', 'notes', 'team/payments', 'team/search']),
        `item-${item}`,
        {
          text: sentence(6),
          n: item,
        },
      );
    }
  }
  const fillSeconds = Math.round(performance.now() - started) / 1000;
  const keyword: number[] = [];
  const listing: number[] = [];
  let hits = 0;
  for (let query = 0; query < options.queries; query += 1) {
    const owner = `owner-${Math.floor(next() * options.owners)}`;
    const text = `${pick(vocabulary)} ${query % 2 === 0 ? pick(vocabulary) : ''}`.trim();
    let begin = performance.now();
    hits += (await store.search(owner, { query: text, limit: 10 })).length;
    keyword.push((performance.now() - begin) * 1000);
    begin = performance.now();
    await store.search(owner, { prefix: 'team', limit: 20 });
    listing.push((performance.now() - begin) * 1000);
  }
  await store.close();
  const milliseconds = (samples: number[]) => {
    const { p50, p99 } = summarize(samples);
    return { p50: Math.round(p50) / 1000, p99: Math.round(p99) / 1000 };
  };
  const result = {
    owners: options.owners,
    itemsPerOwner: options.itemsPerOwner,
    fillSeconds,
    searchMs: milliseconds(keyword),
    listMs: milliseconds(listing),
    averageHits: ratio(hits, options.queries),
  };
  log(
    `${options.embedder ? 'keyword + vector' : 'keyword'} recall, ${options.owners} owner(s) × ${options.itemsPerOwner}: search p50 ${result.searchMs.p50} ms (p99 ${result.searchMs.p99}), list p50 ${result.listMs.p50} ms, filled in ${fillSeconds} s`,
  );
  return result;
}

/** A threads database of `sessions` sessions, half idle 40 days, pruned with a 30-day TTL. */
async function prune(sessions: number) {
  const dataDir = join(root, 'prune');
  const runtime = await createRuntime(
    readServerConfig({ YEOUL_DATA_DIR: dataDir, YEOUL_SAMPLE_KNOWLEDGE: 'false' }),
    { agents: false },
  );
  try {
    const now = Date.now();
    const day = 86_400_000;
    const writes: Array<Promise<void>> = [];
    for (let index = 0; index < sessions; index += 1) {
      const threadId = `session-${index}`;
      const createdAt = index % 2 === 0 ? now - 40 * day : now - day;
      const runId = `run-${index}`;
      const question = { id: `${runId}-u`, role: 'user', content: sentence(40) };
      const answer = { id: `${runId}-a`, role: 'assistant', content: sentence(120) };
      const entry = (
        seq: number,
        node: string | null,
        update: Record<string, unknown>,
        status: 'running' | 'done',
      ) => ({
        threadId,
        seq,
        runId,
        kind: node === null ? ('input' as const) : ('node' as const),
        node,
        step: seq - 1,
        update,
        next: status === 'done' ? null : 'agent',
        status,
        error: null,
        createdAt,
        owner: runtime.checkpointer.instanceId,
        payload: null,
      });
      writes.push(
        runtime.checkpointer
          .append(entry(1, null, { messages: [question] }, 'running'))
          .then(() =>
            runtime.checkpointer.append(entry(2, 'agent', { messages: [answer] }, 'done')),
          ),
      );
      await runtime.sessions.claim(threadId, 'anonymous', question.content);
      if (writes.length >= 500) await Promise.all(writes.splice(0));
    }
    await Promise.all(writes);
    const started = performance.now();
    const report = await pruneSessions(runtime, { olderThanMs: 30 * day });
    const seconds = Math.round(performance.now() - started) / 1000;
    const shrink = ratio(report.bytesBefore - report.bytesAfter, report.bytesBefore);
    log(
      `prune: ${report.removed} of ${sessions} sessions removed in ${seconds} s; ${report.bytesBefore} → ${report.bytesAfter} bytes (shrunk ${Math.round(shrink * 100)}%)`,
    );
    return {
      sessions,
      removed: report.removed,
      seconds,
      bytesBefore: report.bytesBefore,
      bytesAfter: report.bytesAfter,
      shrink,
    };
  } finally {
    await runtime.close();
  }
}

try {
  const oneOwner = await recall({ owners: 1, itemsPerOwner: 10_000, queries: 300 });
  const manyOwners = await recall({ owners: 100, itemsPerOwner: 1_000, queries: 300 });
  const vectors = await recall({
    owners: 1,
    itemsPerOwner: 10_000,
    embedder: hashEmbedder,
    queries: 100,
  });
  const pruned = await prune(10_000);
  console.log(
    JSON.stringify({
      bench: 'memory',
      backend: 'sqlite',
      recall: { oneOwner, manyOwners, vectorsOneOwner: vectors },
      prune: pruned,
      targets: {
        keywordRecallP50MsOneOwner: target(oneOwner.searchMs.p50, 5, 'lower'),
        keywordRecallP50MsManyOwners: target(manyOwners.searchMs.p50, 5, 'lower'),
        pruneShrink: target(pruned.shrink, 0.4, 'higher'),
      },
    }),
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
