import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { GuardrailVaultStore, VaultEntry } from './guardrail-vault-store.ts';

/** A vault store the suite opens, and how to release it. */
export interface OpenedVaultStore {
  store: GuardrailVaultStore;
  /** Another store on the same data, as a second instance (or process) would open it. */
  another(): Promise<GuardrailVaultStore> | GuardrailVaultStore;
  close(): Promise<void> | void;
}

const email: VaultEntry = { placeholder: '[EMAIL_1]', kind: 'email', value: 'hong@example.com' };
const phone: VaultEntry = { placeholder: '[PHONE_1]', kind: 'phone', value: '010-2345-6789' };

/**
 * The behaviour every GuardrailVaultStore backend must have (SQLite, PostgreSQL). `open`
 * gives a fresh, empty store each time.
 */
export function guardrailVaultStoreConformance(
  name: string,
  open: () => Promise<OpenedVaultStore> | OpenedVaultStore,
): void {
  describe(`${name} guardrail vault store (conformance)`, () => {
    let opened: OpenedVaultStore;
    let store: GuardrailVaultStore;
    beforeEach(async () => {
      opened = await open();
      store = opened.store;
    });
    afterEach(async () => {
      await opened.close();
    });

    it('has an empty vault for a session it never saw', async () => {
      assert.deepEqual(await store.load('never-seen'), []);
    });

    it('gives back every entry in the order it was added', async () => {
      const entries = Array.from({ length: 12 }, (_, index) => ({
        placeholder: `[EMAIL_${index + 1}]`,
        kind: 'email',
        value: `user${index + 1}@example.com`,
      }));
      await store.add('s1', entries.slice(0, 10));
      await store.add('s1', [phone]);
      await store.add('s1', entries.slice(10));
      assert.deepEqual(await store.load('s1'), [
        ...entries.slice(0, 10),
        phone,
        ...entries.slice(10),
      ]);
    });

    it('keeps the first value of a placeholder and ignores the same entry added again', async () => {
      await store.add('s1', [email]);
      await store.add('s1', [email, phone]);
      await store.add('s1', [{ ...email, value: 'other@example.com' }]);
      await store.add('s1', [
        { placeholder: '[PHONE_2]', kind: 'phone', value: '02-123-4567' },
        { placeholder: '[PHONE_2]', kind: 'phone', value: '02-765-4321' },
      ]);
      assert.deepEqual(await store.load('s1'), [
        email,
        phone,
        { placeholder: '[PHONE_2]', kind: 'phone', value: '02-123-4567' },
      ]);
    });

    it('keeps each session’s vault apart', async () => {
      await store.add('s1', [email]);
      await store.add('s2', [{ ...email, value: 'kim@example.co.kr' }]);
      assert.deepEqual(await store.load('s1'), [email]);
      assert.deepEqual(await store.load('s2'), [{ ...email, value: 'kim@example.co.kr' }]);
    });

    it('stores values exactly as given', async () => {
      const values = [
        '홍길동.테스트@예제.한국',
        "o'brien+tag@example.com",
        '"quoted"\\back\\slash; DROP TABLE guardrail_vault; --',
        '０１０－２３４５－６７８９',
        `${'a'.repeat(64)}@${'b'.repeat(185)}.com`,
        '  spaced  \n\tnewline  ',
        '😀 emoji 🇰🇷',
      ];
      const entries = values.map((value, index) => ({
        placeholder: `[EMAIL_${index + 1}]`,
        kind: 'email',
        value,
      }));
      await store.add('s1', entries);
      assert.deepEqual(await store.load('s1'), entries);
    });

    it('adds nothing for an empty list', async () => {
      await store.add('s1', []);
      assert.deepEqual(await store.load('s1'), []);
    });

    it('forgets only the deleted session’s vault, and starts afresh after', async () => {
      await store.add('s1', [email, phone]);
      await store.add('s2', [email]);
      await store.delete('s1');
      assert.deepEqual(await store.load('s1'), []);
      assert.deepEqual(await store.load('s2'), [email]);
      await store.delete('s1');
      await store.delete('never-seen');
      await store.add('s1', [{ ...email, value: 'new@example.com' }]);
      assert.deepEqual(await store.load('s1'), [{ ...email, value: 'new@example.com' }]);
    });

    it('lets two instances add the same entries at once and read each other’s', async () => {
      const other = await opened.another();
      const entries = Array.from({ length: 20 }, (_, index) => ({
        placeholder: `[PHONE_${index + 1}]`,
        kind: 'phone',
        value: `010-0000-${String(index).padStart(4, '0')}`,
      }));
      await Promise.all([
        store.add('shared', entries),
        other.add('shared', entries),
        store.add('shared', entries.slice(5)),
        other.add('shared', entries.slice(10)),
      ]);
      // Whichever add came first decides the order: compare the entries, in value order.
      const sorted = (list: VaultEntry[]) => list.sort((a, b) => a.value.localeCompare(b.value));
      assert.deepEqual(sorted(await store.load('shared')), entries);
      assert.deepEqual(sorted(await other.load('shared')), entries);
      await other.delete('shared');
      assert.deepEqual(await store.load('shared'), []);
    });
  });
}
