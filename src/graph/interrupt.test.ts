import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { StateGraph } from './builder.ts';
import { append, replace } from './channels.ts';
import { MemoryCheckpointer } from './checkpoint/memory-checkpointer.ts';
import { SqliteCheckpointer } from './checkpoint/sqlite-checkpointer.ts';
import type { Checkpointer } from './checkpoint/types.ts';
import { InterruptAnsweredError } from './errors/interrupt-answered-error.ts';
import { InterruptNotFoundError } from './errors/interrupt-not-found-error.ts';
import { InvalidRunConfigError } from './errors/invalid-run-config-error.ts';
import { NotInterruptedError } from './errors/not-interrupted-error.ts';
import { PendingRunError } from './errors/pending-run-error.ts';
import { RunInterruptedError } from './errors/run-interrupted-error.ts';
import { answerFor, interrupt } from './interrupt.ts';
import { defineState } from './state.ts';
import { END, START } from './types.ts';

const directory = mkdtempSync(join(tmpdir(), 'yeoul-interrupt-'));
after(() => rmSync(directory, { recursive: true, force: true }));

const schema = defineState({
  log: append<string>(),
  asked: replace<string[]>([]),
  closed: replace<string>(''),
});

/**
 * prepare → act → END. `act` asks one question per key; a key answered `true` is done
 * (recorded in `log` once), `false` is refused; unanswered keys are asked again.
 * Every side effect is counted in `effects`.
 */
function approvalGraph(checkpointer: Checkpointer, keys: string[]) {
  const effects: string[] = [];
  const graph = new StateGraph(schema)
    .addNode('prepare', () => {
      effects.push('prepare');
      return { log: 'prepared' };
    })
    .addNode('act', (state, context) => {
      const done: string[] = [];
      const open: string[] = [];
      for (const key of keys) {
        if (state.log.includes(`ran ${key}`) || state.log.includes(`refused ${key}`)) continue;
        const answer = answerFor(context.resume, key);
        if (answer === undefined) open.push(key);
        else {
          effects.push(`${answer ? 'ran' : 'refused'} ${key}`);
          done.push(`${answer ? 'ran' : 'refused'} ${key}`);
        }
      }
      if (open.length > 0) {
        return interrupt(
          open.map((key) => ({ key, value: { tool: key } })),
          { log: done, asked: open },
        );
      }
      return { log: [...done, 'finished'] };
    })
    .addEdge(START, 'prepare')
    .addEdge('prepare', 'act')
    .addEdge('act', END)
    .compile({
      checkpointer,
      closeRun: (_values, ending) => ({ closed: `${ending.status}: ${ending.error.code}` }),
    });
  return { graph, effects };
}

const backends: Array<[string, () => Checkpointer]> = [
  ['memory', () => new MemoryCheckpointer()],
  ['sqlite', () => new SqliteCheckpointer()],
];

for (const [name, open] of backends) {
  describe(`interrupts on the ${name} checkpointer`, () => {
    it('pauses a run durably and resumes the paused node with the answer, running nothing twice', async () => {
      const { graph, effects } = approvalGraph(open(), ['write']);
      const paused = await graph.run({}, { threadId: 't' });
      assert.equal(paused.status, 'interrupted');
      assert.deepEqual(
        paused.interrupts.map((pending) => [pending.key, pending.node, pending.value]),
        [['write', 'act', { tool: 'write' }]],
      );
      const state = await graph.getState('t');
      assert.equal(state?.status, 'interrupted');
      assert.deepEqual(state?.interrupts, paused.interrupts);
      const id = (paused.interrupts[0] as { id: string }).id;
      const done = await graph.resumeRun('t', { answers: { [id]: true } });
      assert.equal(done.status, 'done');
      assert.deepEqual(done.values.log, ['prepared', 'ran write', 'finished']);
      assert.deepEqual(effects, ['prepare', 'ran write']);
      assert.equal((await graph.getState('t'))?.status, 'done');
      const kinds = (await graph.history('t')).map((entry) => entry.kind);
      assert.deepEqual(kinds, ['input', 'node', 'interrupt', 'resume', 'node']);
    });

    it('refuses a new run, an empty resume and unknown ids while paused', async () => {
      const { graph } = approvalGraph(open(), ['write']);
      await graph.run({}, { threadId: 't' });
      await assert.rejects(graph.run({}, { threadId: 't' }), RunInterruptedError);
      await assert.rejects(graph.resume('t'), InvalidRunConfigError);
      await assert.rejects(graph.resume('t', { answers: { nope: true } }), InterruptNotFoundError);
    });

    it('takes answers one at a time, keeping the open question’s id, and refuses a second answer', async () => {
      const { graph, effects } = approvalGraph(open(), ['a', 'b']);
      const paused = await graph.run({}, { threadId: 't' });
      const [first, second] = paused.interrupts as unknown as [{ id: string }, { id: string }];
      const partly = await graph.resumeRun('t', { answers: { [first.id]: false } });
      assert.equal(partly.status, 'interrupted');
      assert.deepEqual(
        partly.interrupts.map((pending) => pending.id),
        [second.id],
      );
      await assert.rejects(
        graph.resume('t', { answers: { [first.id]: true } }),
        InterruptAnsweredError,
      );
      const done = await graph.resumeRun('t', { answers: { [second.id]: true } });
      assert.equal(done.status, 'done');
      assert.deepEqual(effects, ['prepare', 'refused a', 'ran b']);
      await assert.rejects(
        graph.resume('t', { answers: { [second.id]: true } }),
        InterruptAnsweredError,
      );
      await assert.rejects(graph.resume('t', { answers: { other: true } }), NotInterruptedError);
    });

    it('lets exactly one of two answers sent at once resume the run', async () => {
      const { graph, effects } = approvalGraph(open(), ['write']);
      const paused = await graph.run({}, { threadId: 't' });
      const id = (paused.interrupts[0] as { id: string }).id;
      const outcomes = await Promise.allSettled([
        graph.resume('t', { answers: { [id]: true } }),
        graph.resume('t', { answers: { [id]: true } }),
      ]);
      assert.deepEqual(
        outcomes.map((outcome) => outcome.status),
        ['fulfilled', 'rejected'],
      );
      assert.ok((outcomes[1] as PromiseRejectedResult).reason instanceof InterruptAnsweredError);
      assert.deepEqual(effects, ['prepare', 'ran write']);
    });

    it('cancels a paused run with abandon, committing the close-run update', async () => {
      const { graph } = approvalGraph(open(), ['write']);
      await graph.run({}, { threadId: 't' });
      assert.equal(await graph.abandon('t', 'nobody decided'), true);
      const state = await graph.getState('t');
      assert.equal(state?.status, 'cancelled');
      assert.equal(state?.values.closed, 'cancelled: run_cancelled');
      assert.deepEqual(state?.interrupts, []);
      assert.equal((await graph.run({}, { threadId: 't' })).status, 'interrupted');
    });

    it('streams the interrupt, then a final event saying the run is paused', async () => {
      const { graph } = approvalGraph(open(), ['write']);
      const types: string[] = [];
      let final: { status: string; interrupts: unknown[] } | undefined;
      for await (const event of graph.stream({}, { threadId: 't' })) {
        types.push(event.type);
        if (event.type === 'final') final = event;
      }
      assert.deepEqual(types.slice(-3), ['node-start', 'interrupt', 'final']);
      assert.equal(final?.status, 'interrupted');
      assert.equal(final?.interrupts.length, 1);
    });
  });
}

describe('runs left behind by a dead process', () => {
  it('closes them with the close-run update when a new run asks to, and refuses otherwise', async () => {
    const checkpointer = new MemoryCheckpointer();
    const { graph } = approvalGraph(checkpointer, ['write']);
    await checkpointer.append({
      threadId: 'crashed',
      seq: 1,
      runId: 'old-run',
      kind: 'input',
      node: null,
      step: 0,
      update: null,
      next: 'prepare',
      status: 'running',
      error: null,
      createdAt: 1,
      owner: 'a-dead-process',
      payload: null,
    });
    await assert.rejects(graph.run({}, { threadId: 'crashed' }), PendingRunError);
    const result = await graph.run({}, { threadId: 'crashed', onPendingRun: 'abandon' });
    assert.equal(result.status, 'interrupted');
    const history = await graph.history('crashed');
    assert.deepEqual(
      history.slice(0, 2).map((entry) => [entry.kind, entry.status, entry.error?.code]),
      [
        ['input', 'running', undefined],
        ['end', 'failed', 'run_abandoned'],
      ],
    );
    assert.equal(history[1]?.values.closed, 'failed: run_abandoned');
  });

  it('never takes over a run whose process is alive', async () => {
    const path = join(directory, 'live.sqlite');
    const first = new SqliteCheckpointer({ path });
    const second = new SqliteCheckpointer({ path });
    await first.append({
      threadId: 'busy',
      seq: 1,
      runId: 'live-run',
      kind: 'input',
      node: null,
      step: 0,
      update: null,
      next: 'prepare',
      status: 'running',
      error: null,
      createdAt: 1,
      owner: first.instanceId,
      payload: null,
    });
    const { graph } = approvalGraph(second, ['write']);
    await assert.rejects(graph.run({}, { threadId: 'busy', onPendingRun: 'abandon' }), {
      code: 'run_pending',
      live: true,
    });
    assert.equal(await graph.abandon('busy'), false);
    // Named as the instance that left it (it holds no place in the session's line any more),
    // the run is closed although that instance is alive; another instance's name changes nothing.
    assert.equal(await graph.abandon('busy', 'left behind', undefined, 'another-instance'), false);
    assert.equal(await graph.abandon('busy', 'left behind', undefined, first.instanceId), true);
    assert.equal((await graph.getState('busy'))?.status, 'failed');
    await first.close();
    const result = await graph.run({}, { threadId: 'busy', onPendingRun: 'abandon' });
    assert.equal(result.status, 'interrupted');
    await second.close();
  });

  it('re-runs a node that was answered when its process died, with the same answers', async () => {
    const checkpointer = new MemoryCheckpointer();
    const { graph, effects } = approvalGraph(checkpointer, ['write']);
    const paused = await graph.run({}, { threadId: 't' });
    const id = (paused.interrupts[0] as { id: string }).id;
    const log = await checkpointer.read('t');
    const last = log.entries.at(-1);
    // What a process that died right after committing the answers leaves behind.
    await checkpointer.append({
      ...(last as NonNullable<typeof last>),
      seq: (last?.seq ?? 0) + 1,
      kind: 'resume',
      node: null,
      update: null,
      status: 'running',
      owner: 'a-dead-process',
      payload: {
        interrupts: paused.interrupts,
        answered: [id],
        answers: { [id]: true },
      },
    });
    const { graph: restarted } = approvalGraph(checkpointer, ['write']);
    const done = await restarted.resumeRun('t');
    assert.equal(done.status, 'done');
    assert.deepEqual(done.values.log, ['prepared', 'ran write', 'finished']);
    assert.deepEqual(effects, ['prepare']);
  });
});
