import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { EvalStore } from './eval-store.ts';
import type { EvalRunItem } from './types.ts';

/** An evaluation store the suite opens, and how to release it. */
export interface OpenedEvalStore {
  store: EvalStore;
  close(): Promise<void> | void;
}

const item: EvalRunItem = {
  id: 'calc',
  input: ['123 * 456 계산해줘'],
  response: '123 * 456 = 56,088입니다.',
  sessionId: 'eval-1',
  passed: true,
  scores: [{ scorer: 'contains', score: 1, passed: true, reason: 'the answer states "56088"' }],
  latencyMs: 12,
  usage: { llmCalls: 2, inputTokens: 100, outputTokens: 20 },
};
const summary = { items: 1, passed: 1, failed: 0, meanScore: 1, byScorer: { contains: 1 } };

/**
 * The behaviour every EvalStore backend must have (SQLite, PostgreSQL). `open` gives a
 * fresh, empty store each time.
 */
export function evalStoreConformance(
  name: string,
  open: () => Promise<OpenedEvalStore> | OpenedEvalStore,
): void {
  describe(`${name} evaluation store (conformance)`, () => {
    let opened: OpenedEvalStore;
    let store: EvalStore;
    beforeEach(async () => {
      opened = await open();
      store = opened.store;
    });
    afterEach(async () => {
      await opened.close();
    });

    it('stores a run as running, then its items and summary, for its owner only', async () => {
      const createdAt = '2026-11-27T10:00:00.000Z';
      await store.create({ id: 'r1', owner: 'alice', name: 'nightly', graph: 'chat', createdAt });
      assert.equal((await store.get('r1', 'alice'))?.status, 'running');
      await store.finish('r1', { status: 'done', summary, items: [item] });
      assert.deepEqual(await store.get('r1', 'alice'), {
        id: 'r1',
        name: 'nightly',
        graph: 'chat',
        createdAt,
        status: 'done',
        summary,
        items: [item],
      });
      assert.equal(await store.get('r1', 'bob'), undefined);
      assert.deepEqual(await store.list('bob'), []);
    });

    it('lists runs newest first and finds the latest of a name', async () => {
      for (const [id, at, runName] of [
        ['a', '2026-11-27T10:00:00.000Z', 'nightly'],
        ['b', '2026-11-27T11:00:00.000Z', 'nightly'],
        ['c', '2026-11-27T12:00:00.000Z', 'other'],
      ] as const) {
        await store.create({ id, owner: 'alice', name: runName, graph: 'chat', createdAt: at });
      }
      await store.finish('a', { status: 'failed', summary, items: [], error: 'boom' });
      const runs = await store.list('alice');
      assert.deepEqual(
        runs.map((run) => run.id),
        ['c', 'b', 'a'],
      );
      assert.equal(runs[2]?.error, 'boom');
      assert.equal('items' in (runs[0] ?? {}), false);
      assert.equal((await store.list('alice', 2)).length, 2);
      assert.equal((await store.latestNamed('nightly', 'alice'))?.id, 'b');
      assert.equal(await store.latestNamed('nightly', 'bob'), undefined);
    });

    it('keeps one rating per answer, the latest, and lists them by owner', async () => {
      const rating = {
        sessionId: 's1',
        owner: 'alice',
        input: '123 * 456 계산해줘',
        answer: '56,088입니다.',
      };
      await store.rate({ ...rating, rating: 1, ratedAt: '2026-11-27T10:00:00.000Z' });
      await store.rate({
        ...rating,
        rating: -1,
        comment: 'too short',
        ratedAt: '2026-11-27T10:01:00.000Z',
      });
      await store.rate({
        ...rating,
        answer: 'another answer',
        rating: 1,
        ratedAt: '2026-11-27T10:02:00.000Z',
      });
      await store.rate({
        ...rating,
        sessionId: 's2',
        owner: 'bob',
        rating: 1,
        ratedAt: '2026-11-27T10:03:00.000Z',
      });
      const alice = await store.feedback('alice');
      assert.deepEqual(
        alice.map((entry) => [entry.answer, entry.rating, entry.comment]),
        [
          ['56,088입니다.', -1, 'too short'],
          ['another answer', 1, undefined],
        ],
      );
      assert.equal((await store.feedback()).length, 3);
    });
  });
}
