import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { CheckpointConflictError, type Checkpointer } from '../index.ts';
import { entryFor } from './checkpointer-conformance-entries.ts';
import { runCases } from './checkpointer-run-conformance.ts';
import type { CheckpointEntry } from './types.ts';

/**
 * The behaviour every Checkpointer backend must have. Call it from a test file with a
 * factory that opens a fresh, empty backend; `reopen` (when the backend persists)
 * opens the same storage again after `close`.
 */
export function checkpointerConformance(
  name: string,
  open: () => Promise<Checkpointer> | Checkpointer,
  reopen?: () => Promise<Checkpointer> | Checkpointer,
): void {
  describe(`${name} checkpointer (conformance)`, () => {
    let checkpointer: Checkpointer;
    beforeEach(async () => {
      checkpointer = await open();
    });
    afterEach(async () => {
      await checkpointer.close();
    });

    it('reads an unknown thread as empty', async () => {
      assert.deepEqual(await checkpointer.read('nobody'), { base: null, entries: [] });
    });

    it('returns appended entries in order, exactly as given', async () => {
      const entries = [
        entryFor('t', 1, {
          kind: 'input',
          node: null,
          update: { messages: [{ id: 'a', text: '안녕' }] },
        }),
        entryFor('t', 2, { error: { code: 'x', message: 'y' }, status: 'error', next: null }),
        entryFor('t', 3, { update: null }),
      ];
      for (const entry of entries) await checkpointer.append(entry);
      assert.deepEqual((await checkpointer.read('t')).entries, entries);
    });

    it('reads only the entries after a given step', async () => {
      for (let seq = 1; seq <= 5; seq += 1) await checkpointer.append(entryFor('t', seq));
      const log = await checkpointer.read('t', 3);
      assert.deepEqual(
        log.entries.map((entry) => entry.seq),
        [4, 5],
      );
      assert.equal(log.base, null);
    });

    it('keeps threads apart', async () => {
      await checkpointer.append(entryFor('a', 1));
      await checkpointer.append(entryFor('b', 1, { node: 'other' }));
      assert.equal((await checkpointer.read('a')).entries[0]?.node, 'agent');
      assert.equal((await checkpointer.read('b')).entries[0]?.node, 'other');
    });

    it('refuses a second entry at the same step with a conflict error', async () => {
      await checkpointer.append(entryFor('t', 1));
      await assert.rejects(checkpointer.append(entryFor('t', 1)), CheckpointConflictError);
      assert.equal((await checkpointer.read('t')).entries.length, 1);
    });

    it('refuses an entry that skips a step', async () => {
      await checkpointer.append(entryFor('t', 1));
      await assert.rejects(checkpointer.append(entryFor('t', 3)), CheckpointConflictError);
      await assert.rejects(checkpointer.append(entryFor('new', 2)), CheckpointConflictError);
    });

    it('does not let a caller change stored entries through its own objects', async () => {
      const entry = entryFor('t', 1);
      await checkpointer.append(entry);
      (entry.update as { messages: unknown[] }).messages.push('mutated');
      const messagesOf = async () =>
        ((await checkpointer.read('t')).entries[0] as CheckpointEntry).update
          ?.messages as unknown[];
      (await messagesOf()).push('mutated too');
      assert.equal((await messagesOf()).length, 1);
    });

    it('compacts history into a base snapshot and continues numbering after it', async () => {
      for (let seq = 1; seq <= 6; seq += 1) await checkpointer.append(entryFor('t', seq));
      await checkpointer.compact('t', { seq: 4, values: { total: 4 }, createdAt: 42 });
      const log = await checkpointer.read('t');
      assert.deepEqual(log.base, { seq: 4, values: { total: 4 }, createdAt: 42 });
      assert.deepEqual(
        log.entries.map((entry) => entry.seq),
        [5, 6],
      );
      assert.equal((await checkpointer.read('t', 4)).base, null);
      assert.deepEqual((await checkpointer.read('t', 2)).base?.seq, 4);
      await assert.rejects(checkpointer.append(entryFor('t', 4)), CheckpointConflictError);
      await checkpointer.append(entryFor('t', 7));
      assert.equal((await checkpointer.read('t', 6)).entries[0]?.seq, 7);
    });

    it('never compacts away the last step, and ignores an older snapshot', async () => {
      for (let seq = 1; seq <= 3; seq += 1) await checkpointer.append(entryFor('t', seq));
      await assert.rejects(
        checkpointer.compact('t', { seq: 3, values: {}, createdAt: 1 }),
        RangeError,
      );
      await checkpointer.compact('t', { seq: 2, values: { v: 2 }, createdAt: 1 });
      await checkpointer.compact('t', { seq: 1, values: { v: 1 }, createdAt: 1 });
      assert.deepEqual((await checkpointer.read('t')).base?.values, { v: 2 });
    });

    it('takes back the entries from a step on, the next append continuing there', async () => {
      for (let seq = 1; seq <= 3; seq += 1) {
        await checkpointer.append(entryFor('t', seq, { runId: 'run-1', status: 'done' }));
      }
      for (let seq = 4; seq <= 6; seq += 1) {
        await checkpointer.append(entryFor('t', seq, { runId: 'run-2' }));
      }
      assert.equal(await checkpointer.truncate('t', 7), false);
      assert.equal(await checkpointer.truncate('t', 4), true);
      assert.deepEqual(
        (await checkpointer.read('t')).entries.map((entry) => entry.seq),
        [1, 2, 3],
      );
      const [listed] = await checkpointer.listThreads({ prefix: 't' });
      assert.equal(listed?.lastSeq, 3);
      assert.equal(listed?.status, 'done');
      assert.deepEqual(await checkpointer.listThreads({ status: 'running' }), []);
      await assert.rejects(checkpointer.append(entryFor('t', 5)), CheckpointConflictError);
      await checkpointer.append(entryFor('t', 4, { runId: 'run-3' }));
      assert.equal((await checkpointer.read('t', 3)).entries[0]?.runId, 'run-3');
    });

    it('takes back steps inside a long log and never past its base snapshot', async () => {
      // Large entries: a backend that groups entries (segments) has to split one.
      const big = (seq: number) =>
        entryFor('t', seq, { update: { text: `${seq}:${'가'.repeat(1200)}` } });
      for (let seq = 1; seq <= 30; seq += 1) await checkpointer.append(big(seq));
      await checkpointer.compact('t', { seq: 5, values: { kept: true }, createdAt: 1 });
      assert.equal(await checkpointer.truncate('t', 5), false);
      assert.equal(await checkpointer.truncate('t', 18), true);
      const log = await checkpointer.read('t');
      assert.equal(log.base?.seq, 5);
      assert.deepEqual(
        log.entries.map((entry) => entry.seq),
        Array.from({ length: 12 }, (_, index) => index + 6),
      );
      assert.deepEqual(log.entries.at(-1), big(17));
      for (let seq = 18; seq <= 40; seq += 1) await checkpointer.append(big(seq));
      assert.deepEqual((await checkpointer.read('t', 39)).entries, [big(40)]);
      assert.equal((await checkpointer.listThreads({ status: 'running' }))[0]?.lastSeq, 40);
      assert.equal(await checkpointer.truncate('t', 1), false);
      assert.equal(await checkpointer.truncate('nobody', 1), false);
    });

    it('deletes a thread with its snapshot, leaving others', async () => {
      for (let seq = 1; seq <= 3; seq += 1) await checkpointer.append(entryFor('t', seq));
      await checkpointer.append(entryFor('keep', 1));
      await checkpointer.compact('t', { seq: 1, values: {}, createdAt: 1 });
      await checkpointer.deleteThread('t');
      assert.deepEqual(await checkpointer.read('t'), { base: null, entries: [] });
      assert.equal((await checkpointer.read('keep')).entries.length, 1);
      await checkpointer.append(entryFor('t', 1));
      assert.equal((await checkpointer.read('t')).entries.length, 1);
    });

    it('lists threads by their last entry, newest first, filtered by status', async () => {
      await checkpointer.append(entryFor('old', 1, { status: 'done', next: null, createdAt: 10 }));
      await checkpointer.append(entryFor('live', 1, { createdAt: 20 }));
      await checkpointer.append(entryFor('live', 2, { createdAt: 30, runId: 'run-2' }));
      const all = await checkpointer.listThreads();
      assert.deepEqual(
        all.map((info) => [info.threadId, info.lastSeq, info.status, info.runId, info.updatedAt]),
        [
          ['live', 2, 'running', 'run-2', 30],
          ['old', 1, 'done', 'run-1', 10],
        ],
      );
      const running = await checkpointer.listThreads({ status: 'running' });
      assert.deepEqual(
        running.map((info) => info.threadId),
        ['live'],
      );
    });

    it('lists the threads whose id starts with a prefix, and only those', async () => {
      const ids = [
        's#research@r1.1.0',
        's#research@r1.1.0#inner@r9.1.0',
        's#research@r2.3.1',
        's#researchX',
        's#reporter@r1.1.0',
        's',
        'sA',
        't#research@r1.1.0',
        '세션#research@r1.1.0',
        '세션#research@r1.1.0#a',
        '세션#researcH',
      ];
      for (const [index, threadId] of ids.entries()) {
        await checkpointer.append(
          entryFor(
            threadId,
            1,
            index % 2 === 0
              ? { createdAt: 100 + index }
              : { status: 'done', next: null, createdAt: 100 + index },
          ),
        );
      }
      const listed = async (prefix: string, status?: 'running' | 'done') =>
        (await checkpointer.listThreads({ prefix, ...(status ? { status } : {}) })).map(
          (info) => info.threadId,
        );
      assert.deepEqual(await listed('s#research@'), [
        's#research@r2.3.1',
        's#research@r1.1.0#inner@r9.1.0',
        's#research@r1.1.0',
      ]);
      assert.deepEqual(await listed('s#research@r1.'), [
        's#research@r1.1.0#inner@r9.1.0',
        's#research@r1.1.0',
      ]);
      assert.deepEqual(await listed('s#research@', 'running'), [
        's#research@r2.3.1',
        's#research@r1.1.0',
      ]);
      assert.deepEqual(await listed('세션#research@r1.1.0'), [
        '세션#research@r1.1.0#a',
        '세션#research@r1.1.0',
      ]);
      // A prefix ending in a character past ASCII has no range bound: the same answer.
      const korean = ['세션#researcH', '세션#research@r1.1.0#a', '세션#research@r1.1.0'];
      assert.deepEqual(await listed('세션'), korean);
      assert.deepEqual(await listed('세'), korean);
      assert.deepEqual(await listed('nothing'), []);
    });

    runCases(() => checkpointer);

    it('knows it is alive itself, and that an instance it never heard of is not', async () => {
      assert.equal(typeof checkpointer.instanceId, 'string');
      assert.ok(checkpointer.instanceId.length > 0);
      assert.equal(await checkpointer.isAlive(checkpointer.instanceId), true);
      assert.equal(await checkpointer.isAlive('an-instance-that-never-ran'), false);
    });

    if (reopen) {
      it('sees another open instance as alive, and as gone once it closes', async () => {
        const peer = await reopen();
        assert.notEqual(peer.instanceId, checkpointer.instanceId);
        assert.equal(await checkpointer.isAlive(peer.instanceId), true);
        assert.equal(await peer.isAlive(checkpointer.instanceId), true);
        await peer.close();
        assert.equal(await checkpointer.isAlive(peer.instanceId), false);
      });

      it('keeps everything across close and reopen', async () => {
        for (let seq = 1; seq <= 4; seq += 1) await checkpointer.append(entryFor('t', seq));
        await checkpointer.compact('t', { seq: 2, values: { kept: true }, createdAt: 5 });
        const before = await checkpointer.read('t');
        await checkpointer.close();
        checkpointer = await reopen();
        assert.deepEqual(await checkpointer.read('t'), before);
        await checkpointer.append(entryFor('t', 5));
      });
    }
  });
}

export { entryFor };
