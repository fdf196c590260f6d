import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import {
  append,
  CheckpointConflictError,
  type Checkpointer,
  defineState,
  END,
  START,
  StateGraph,
} from '../index.ts';
import type { CheckpointEntry } from './types.ts';

/** Builds an entry for the suite; only the fields a test cares about need to be given. */
export function entryFor(
  threadId: string,
  seq: number,
  fields: Partial<CheckpointEntry> = {},
): CheckpointEntry {
  return {
    threadId,
    seq,
    runId: 'run-1',
    kind: 'node',
    node: 'agent',
    step: seq,
    update: { messages: [{ id: `m${seq}`, content: `message ${seq}` }] },
    next: 'agent',
    status: 'running',
    error: null,
    createdAt: 1_700_000_000_000 + seq,
    owner: null,
    payload: null,
    ...fields,
  };
}

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

    it('keeps a paused run: its owner, its open questions and its answers', async () => {
      const interrupts = [
        { id: 'i-1', key: 'call-1', node: 'tools', value: { tool: 'write_file' }, createdAt: 7 },
        // A subgraph's question, passed on by its node with where it was asked.
        {
          id: 'i-2',
          key: 'ok',
          node: 'tools',
          value: 'ok?',
          createdAt: 8,
          path: ['tools', 'check'],
        },
      ];
      const owner = checkpointer.instanceId;
      const entries = [
        entryFor('p', 1, { kind: 'input', node: null, owner }),
        entryFor('p', 2, {
          kind: 'interrupt',
          node: 'tools',
          next: 'tools',
          status: 'interrupted',
          owner,
          payload: { interrupts, answered: [] },
        }),
      ];
      for (const entry of entries) await checkpointer.append(entry);
      assert.deepEqual((await checkpointer.read('p')).entries, entries);
      const paused = await checkpointer.listThreads({ status: 'interrupted' });
      assert.deepEqual(
        paused.map((info) => [info.threadId, info.status]),
        [['p', 'interrupted']],
      );
      const resume = entryFor('p', 3, {
        kind: 'resume',
        node: null,
        next: 'tools',
        owner,
        payload: { interrupts, answered: ['i-1'], answers: { 'i-1': { approve: true } } },
      });
      await checkpointer.append(resume);
      assert.deepEqual((await checkpointer.read('p', 2)).entries, [resume]);
      assert.deepEqual(await checkpointer.listThreads({ status: 'interrupted' }), []);
    });

    it('keeps the per-task writes of a super-step: task places, partial work, next tasks, joins', async () => {
      const entries = [
        entryFor('s', 1, {
          kind: 'node',
          node: 'split',
          next: 'pay',
          payload: {
            interrupts: [],
            answered: [],
            tasks: [{ node: 'pay' }, { node: 'map', input: { item: '가' } }],
            joins: { '0': ['split'] },
          },
        }),
        entryFor('s', 2, {
          kind: 'task',
          node: 'map',
          payload: { interrupts: [], answered: [], task: 1, partial: true },
        }),
        entryFor('s', 3, {
          kind: 'task',
          node: 'pay',
          payload: { interrupts: [], answered: [], task: 0 },
        }),
      ];
      for (const entry of entries) await checkpointer.append(entry);
      assert.deepEqual((await checkpointer.read('s')).entries, entries);
      assert.deepEqual((await checkpointer.read('s', 2)).entries, [entries[2]]);
    });

    it('resumes a super-step a dead process left half done: only its unfinished tasks run', async () => {
      const ran: string[] = [];
      const graph = new StateGraph(defineState({ log: append<string>() }))
        .addNode('split', () => ({ log: 'split' }))
        .addNode('pay', () => {
          ran.push('pay');
          return { log: 'pay' };
        })
        .addNode('wait', () => {
          ran.push('wait');
          return { log: 'wait' };
        })
        .addNode('finish', () => {
          ran.push('finish');
          return { log: 'finish' };
        })
        .addEdge(START, 'split')
        .addEdge('split', 'pay')
        .addEdge('split', 'wait')
        .addEdge(['pay', 'wait'], 'finish')
        .addEdge('finish', END)
        .compile({ checkpointer });
      const owner = 'an-instance-that-died';
      const tasks = { interrupts: [], answered: [], tasks: [{ node: 'pay' }, { node: 'wait' }] };
      const left = [
        entryFor('half', 1, {
          kind: 'input',
          node: null,
          step: 0,
          update: null,
          next: 'split',
          owner,
        }),
        entryFor('half', 2, {
          node: 'split',
          step: 1,
          update: { log: 'split' },
          next: 'pay',
          owner,
          payload: tasks,
        }),
        entryFor('half', 3, {
          kind: 'task',
          node: 'pay',
          step: 2,
          update: { log: 'pay' },
          next: 'pay',
          owner,
          payload: { interrupts: [], answered: [], task: 0 },
        }),
      ];
      for (const entry of left) await checkpointer.append(entry);
      assert.deepEqual((await graph.getState('half'))?.values.log, ['split']);
      const resumed = await graph.resume('half');
      assert.deepEqual(ran, ['wait', 'finish']);
      assert.deepEqual(resumed.log, ['split', 'pay', 'wait', 'finish']);
      assert.equal((await graph.getState('half'))?.status, 'done');
    });

    it('forks a thread at a step without changing the original, byte for byte', async () => {
      const graph = new StateGraph(defineState({ log: append<string>() }))
        .addNode('a', () => ({ log: 'a' }))
        .addNode('b', () => ({ log: 'b' }))
        .addEdge(START, 'a')
        .addEdge('a', 'b')
        .addEdge('b', END)
        .compile({ checkpointer });
      await graph.invoke({ log: 'one' }, { threadId: 'src' });
      await graph.invoke({ log: 'two' }, { threadId: 'src' });
      const before = JSON.stringify(await checkpointer.read('src'));
      const history = await graph.history('src');
      const atA = history.findLast((entry) => entry.node === 'a') as { step: number };
      const { threadId } = await graph.fork('src', { atStep: atA.step, update: { log: 'edit' } });
      assert.deepEqual((await graph.getState(threadId))?.values.log, [
        'one',
        'a',
        'b',
        'two',
        'a',
        'edit',
      ]);
      const resumed = await graph.resume(threadId);
      assert.deepEqual(resumed.log, ['one', 'a', 'b', 'two', 'a', 'edit', 'b']);
      await graph.invoke({ log: 'three' }, { threadId });
      assert.equal(JSON.stringify(await checkpointer.read('src')), before);
      assert.deepEqual((await graph.getState(threadId))?.forkedFrom, {
        threadId: 'src',
        step: atA.step,
      });
    });

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
