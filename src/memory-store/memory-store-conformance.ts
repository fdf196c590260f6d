import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { Embedder } from '../models/index.ts';
import { InvalidMemoryNameError } from './errors/invalid-memory-name-error.ts';
import { MemoryValueTooLargeError } from './errors/memory-value-too-large-error.ts';
import { maxMemoryValueBytes } from './memory-names.ts';
import type { MemoryStore } from './types.ts';

/** A memory store the suite opens, and how to release it. */
export interface OpenedMemoryStore {
  store: MemoryStore;
  close(): Promise<void> | void;
}

/**
 * A deterministic embedder for tests: each text's vector counts the concepts it names, so
 * "강아지" and "puppy" land on the same axis without sharing a keyword.
 */
export const conceptEmbedder: Embedder = {
  name: 'test:concepts',
  async embed(texts) {
    const concepts = [
      ['dog', 'puppy', '강아지', '개'],
      ['coffee', 'espresso', '커피'],
      ['rain', 'umbrella', '비', '우산'],
    ];
    return texts.map((text) => {
      const lower = text.toLowerCase();
      return [
        ...concepts.map((words) => words.filter((word) => lower.includes(word)).length),
        0.01,
      ];
    });
  },
};

const names = (items: Array<{ namespace: string; key: string }>) =>
  items.map((item) => `${item.namespace}:${item.key}`);

/**
 * The behaviour every MemoryStore backend must have (SQLite, PostgreSQL), hostile names
 * included. `open` gives a fresh, empty store each time (with the embedder when given).
 */
export function memoryStoreConformance(
  name: string,
  open: (options: { embedder?: Embedder }) => Promise<OpenedMemoryStore> | OpenedMemoryStore,
): void {
  describe(`${name} memory store (conformance)`, () => {
    let opened: OpenedMemoryStore | undefined;
    const fresh = async (options: { embedder?: Embedder } = {}) => {
      opened = await open(options);
      return opened.store;
    };
    afterEach(async () => {
      await opened?.store.close();
      await opened?.close();
      opened = undefined;
    });

    it('stores, reads, replaces and deletes an item', async () => {
      const store = await fresh();
      const put = await store.put('alice', 'profile', 'name', { name: '철수' });
      assert.deepEqual(put.value, { name: '철수' });
      assert.match(put.updatedAt, /^\d{4}-\d\d-\d\dT/);
      assert.deepEqual((await store.get('alice', 'profile', 'name'))?.value, { name: '철수' });
      await store.put('alice', 'profile', 'name', '영희');
      assert.equal((await store.get('alice', 'profile', 'name'))?.value, '영희');
      assert.equal((await store.search('alice')).length, 1);
      assert.equal(await store.delete('alice', 'profile', 'name'), true);
      assert.equal(await store.get('alice', 'profile', 'name'), undefined);
      assert.equal(await store.delete('alice', 'profile', 'name'), false);
    });

    it('keeps two owners with the same namespace and key apart in every operation', async () => {
      const store = await fresh();
      await store.put('alice', 'team/payments', 'lead', '앨리스의 비밀 메모');
      await store.put('bob', 'team/payments', 'lead', 'bob note');
      assert.equal(
        (await store.get('alice', 'team/payments', 'lead'))?.value,
        '앨리스의 비밀 메모',
      );
      assert.equal((await store.get('bob', 'team/payments', 'lead'))?.value, 'bob note');
      assert.deepEqual(
        (await store.search('bob', { query: '비밀 메모' })).map((item) => item.value),
        [],
      );
      assert.deepEqual(
        (await store.search('bob', { prefix: 'team' })).map((item) => item.value),
        ['bob note'],
      );
      assert.equal(await store.delete('bob', 'team/payments', 'lead'), true);
      assert.equal(
        (await store.get('alice', 'team/payments', 'lead'))?.value,
        '앨리스의 비밀 메모',
      );
      assert.equal(await store.get('carol', 'team/payments', 'lead'), undefined);
    });

    it('matches a prefix by whole segments: team reaches team/a, never teams', async () => {
      const store = await fresh();
      await store.put('alice', 'team', 'root', 1);
      await store.put('alice', 'team/a', 'k', 2);
      await store.put('alice', 'team/a/deep', 'k', 3);
      await store.put('alice', 'teams', 'k', 4);
      await store.put('alice', 'team0', 'k', 5);
      await store.put('alice', 'team.b', 'k', 6);
      const under = (await store.search('alice', { prefix: 'team' })).map((item) => item.value);
      assert.deepEqual([...under].sort(), [1, 2, 3]);
      const deeper = await store.search('alice', { prefix: 'team/a' });
      assert.deepEqual(deeper.map((item) => item.value).sort(), [2, 3]);
    });

    it('reads _ . : and - as plain characters, never wildcards', async () => {
      const store = await fresh();
      await store.put('alice', 'a_b', 'k', 'underscore');
      await store.put('alice', 'aXb', 'k', 'letter');
      await store.put('alice', 'a.b', 'k', 'dot');
      await store.put('alice', 'a:b-c', 'k', 'colon');
      assert.deepEqual(
        (await store.search('alice', { prefix: 'a_b' })).map((item) => item.value),
        ['underscore'],
      );
      assert.deepEqual(
        (await store.search('alice', { prefix: 'a.b' })).map((item) => item.value),
        ['dot'],
      );
      assert.deepEqual(
        (await store.search('alice', { prefix: 'a:b-c' })).map((item) => item.value),
        ['colon'],
      );
      await store.put('alice', 'x', 'a_b', 1);
      assert.equal(await store.get('alice', 'x', 'aXb'), undefined);
    });

    it('refuses % * \\ spaces, empty or 9th segments and 65-character segments, naming each', async () => {
      const store = await fresh();
      await store.put('alice', 'team', 'k', 'kept');
      const hostile = [
        'team%',
        '%',
        'te*m',
        'team\\a',
        'team a',
        '',
        'team//a',
        'team/',
        '/team',
        'a/b/c/d/e/f/g/h/i',
        'a'.repeat(65),
        '팀',
      ];
      for (const namespace of hostile) {
        await assert.rejects(store.put('alice', namespace, 'k', 1), InvalidMemoryNameError);
        await assert.rejects(store.get('alice', namespace, 'k'), InvalidMemoryNameError);
        await assert.rejects(store.delete('alice', namespace, 'k'), InvalidMemoryNameError);
        await assert.rejects(store.search('alice', { prefix: namespace }), InvalidMemoryNameError);
      }
      for (const key of ['%', '*', 'a b', '', 'k\\', 'x'.repeat(129), 'a/b']) {
        await assert.rejects(store.put('alice', 'team', key, 1), InvalidMemoryNameError);
      }
      await assert.rejects(store.put('alice', 'a%/b*', 'k%', 1), (error: unknown) => {
        assert.ok(error instanceof InvalidMemoryNameError);
        assert.equal(error.problems.length, 3);
        return true;
      });
      assert.deepEqual(
        (await store.search('alice')).map((item) => item.value),
        ['kept'],
      );
    });

    it('stores 1-segment and 8-segment namespaces and 64-character segments', async () => {
      const store = await fresh();
      const deep = 'a/b/c/d/e/f/g/h';
      const wide = 'w'.repeat(64);
      await store.put('alice', 'a', 'k', 'one');
      await store.put('alice', deep, 'k', 'eight');
      await store.put('alice', wide, 'x'.repeat(128), 'wide');
      assert.equal((await store.get('alice', deep, 'k'))?.value, 'eight');
      assert.equal((await store.get('alice', wide, 'x'.repeat(128)))?.value, 'wide');
      assert.deepEqual(
        (await store.search('alice', { prefix: 'a' })).map((item) => item.value).sort(),
        ['eight', 'one'],
      );
      assert.deepEqual(
        (await store.search('alice', { prefix: deep })).map((item) => item.value),
        ['eight'],
      );
      assert.deepEqual(await store.search('alice', { prefix: 'a/b/c/d/e/f/g/z' }), []);
    });

    it('keeps Unicode values exactly and finds them by Korean keywords', async () => {
      const store = await fresh();
      const value = {
        team: '우리 팀은 결제팀이야',
        emoji: '🦊𝒳',
        nul: 'a\u0000b',
        mixed: 'Café ß',
      };
      await store.put('alice', 'profile', 'team', value);
      assert.deepEqual((await store.get('alice', 'profile', 'team'))?.value, value);
      const found = await store.search('alice', { query: '결제팀' });
      assert.deepEqual(names(found), ['profile:team']);
      assert.equal(typeof found[0]?.score, 'number');
    });

    it('accepts a value of exactly 65,536 bytes as JSON and refuses one byte more', async () => {
      const store = await fresh();
      const fits = 'x'.repeat(maxMemoryValueBytes - 2); // the JSON adds two quotes
      await store.put('alice', 'big', 'fits', fits);
      assert.equal((await store.get('alice', 'big', 'fits'))?.value, fits);
      await assert.rejects(store.put('alice', 'big', 'over', `${fits}x`), MemoryValueTooLargeError);
      await assert.rejects(
        store.put('alice', 'big', 'hangul', '가'.repeat(22_000)),
        MemoryValueTooLargeError,
      );
      assert.equal(await store.get('alice', 'big', 'over'), undefined);
    });

    it('lists newest first and honours the limit (20 by default, at most 100)', async () => {
      const store = await fresh();
      for (let index = 0; index < 120; index += 1) {
        await store.put('alice', 'notes', `n${String(index).padStart(3, '0')}`, index);
      }
      await new Promise((resolve) => setTimeout(resolve, 5)); // a later millisecond
      await store.put('alice', 'notes', 'n005', 'touched');
      const listed = await store.search('alice', { prefix: 'notes' });
      assert.equal(listed.length, 20);
      assert.equal(listed[0]?.key, 'n005');
      assert.equal((await store.search('alice', { limit: 500 })).length, 100);
      assert.equal((await store.search('alice', { limit: 3 })).length, 3);
    });

    it('ranks keyword matches best first, within the prefix', async () => {
      const store = await fresh();
      await store.put('alice', 'profile', 'likes', '나는 커피와 녹차를 좋아해');
      await store.put('alice', 'profile', 'coffee', '커피는 아메리카노, 커피 원두는 에티오피아');
      await store.put('alice', 'work', 'coffee', '회의실 커피 머신 고장');
      await store.put('alice', 'profile', 'name', '내 이름은 철수');
      const hits = await store.search('alice', { prefix: 'profile', query: '커피 원두' });
      assert.deepEqual(names(hits), ['profile:coffee', 'profile:likes']);
      assert.ok((hits[0]?.score ?? 0) > (hits[1]?.score ?? 0));
      assert.deepEqual(await store.search('alice', { query: '%' }), []);
      assert.deepEqual(names(await store.search('alice', { query: 'name' })), ['profile:name']);
    });

    it('finds items by meaning with an embedding model, still one owner only', async () => {
      const store = await fresh({ embedder: conceptEmbedder });
      await store.put('alice', 'profile', 'pet', { pet: 'a puppy called Bori' });
      await store.put('alice', 'profile', 'drink', 'espresso every morning');
      await store.put('bob', 'profile', 'pet', 'my dog');
      const hits = await store.search('alice', { query: '강아지' });
      assert.deepEqual(names(hits), ['profile:pet']);
      assert.deepEqual(hits[0]?.value, { pet: 'a puppy called Bori' });
    });
  });
}
