import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PendingRunError, SqliteCheckpointer } from '../src/graph/index.ts';
import {
  buildChatFixtureGraph,
  buildFanOutPipelineGraph,
  buildPipelineGraph,
  chatFixtureInput,
} from '../src/testing/internal/index.ts';

const directory = mkdtempSync(join(tmpdir(), 'yeoul-durability-'));
after(() => rmSync(directory, { recursive: true, force: true }));

/** Starts the crash child and kills it with SIGKILL once its hanging node has started. */
async function runAndKill(database: string, log: string, threadId: string, hangAt: string) {
  const child = spawn(
    process.execPath,
    [join(import.meta.dirname, 'fixtures', 'crash-child.ts'), database, log, threadId, hangAt],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the child exited (${code}) before hanging`)));
  });
  const exited = new Promise((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  child.kill('SIGKILL');
  assert.equal(await exited, 'SIGKILL');
}

const withoutIds = (notes: Array<{ id?: string; node: string; text: string }>) =>
  notes.map(({ node, text }) => ({ node, text }));

describe('durability', () => {
  it('resumes a run killed with SIGKILL to the state of an uninterrupted run, without re-running finished steps', async () => {
    const database = join(directory, 'crash.sqlite');
    const log = join(directory, 'crash.log');
    writeFileSync(log, '');
    await runAndKill(database, log, 'crashed', 'n4');
    assert.equal(readFileSync(log, 'utf8'), 'n1\nn2\nn3\nn4\n');

    const checkpointer = new SqliteCheckpointer({ path: database });
    const graph = buildPipelineGraph({ checkpointer, executionLog: log });
    const interrupted = await graph.getState('crashed');
    assert.equal(interrupted?.status, 'running');
    assert.equal(interrupted?.next, 'n4');
    assert.equal(interrupted?.values.total, 6);
    assert.deepEqual(
      (await graph.pendingRuns()).map((info) => info.threadId),
      ['crashed'],
    );
    await assert.rejects(
      graph.invoke({ total: 1 }, { threadId: 'crashed' }),
      (error: unknown) => error instanceof PendingRunError && error.code === 'run_pending',
    );

    writeFileSync(log, '');
    const resumed = await graph.resume('crashed');
    assert.equal(readFileSync(log, 'utf8'), 'n4\nn5\nn6\n');
    assert.deepEqual(await graph.pendingRuns(), []);

    const clean = await graph.invoke(
      { notes: { node: 'input', text: 'start' } },
      { threadId: 'clean' },
    );
    assert.equal(resumed.total, clean.total);
    assert.deepEqual(withoutIds(resumed.notes), withoutIds(clean.notes));
    assert.equal((await graph.getState('crashed'))?.status, 'done');
    const history = await graph.history('crashed');
    assert.equal(new Set(history.map((entry) => entry.runId)).size, 1, 'one run, continued');
    assert.deepEqual(
      history.map((entry) => entry.step),
      [0, 1, 2, 3, 4, 5, 6],
    );
    await checkpointer.close();
  });

  it('after a SIGKILL mid-super-step, re-runs only the branch that had not finished: the side effect of the done one happens once, the join once', async () => {
    const database = join(directory, 'fan-out.sqlite');
    const log = join(directory, 'fan-out.log');
    writeFileSync(log, '');
    await runAndKill(database, log, 'paying', 'fan-out');
    assert.equal(readFileSync(log, 'utf8'), 'split\npay\nwait\n');

    const checkpointer = new SqliteCheckpointer({ path: database });
    const graph = buildFanOutPipelineGraph({ checkpointer, executionLog: log });
    const interrupted = await graph.getState('paying');
    assert.equal(interrupted?.status, 'running');
    assert.equal(interrupted?.values.total, 1, "pay's write waits for its super-step");
    const resumed = await graph.resume('paying');
    assert.equal(readFileSync(log, 'utf8'), 'split\npay\nwait\nwait\nfinish\n');
    assert.equal(resumed.total, 1 + 10 + 100 + 1000);
    assert.deepEqual(
      resumed.notes.map((note) => note.node),
      ['input', 'split', 'pay', 'wait', 'finish'],
      'merged in the order the edges were declared',
    );
    const history = await graph.history('paying');
    assert.deepEqual(
      history.map((entry) => [entry.kind, entry.node]),
      [
        ['input', null],
        ['node', 'split'],
        ['task', 'pay'],
        ['node', 'wait'],
        ['node', 'finish'],
      ],
    );
    assert.equal(new Set(history.map((entry) => entry.runId)).size, 1, 'one run, continued');
    await checkpointer.close();
  });

  it('abandons an interrupted run so that the thread takes new runs', async () => {
    const database = join(directory, 'abandon.sqlite');
    const log = join(directory, 'abandon.log');
    await runAndKill(database, log, 'stuck', 'n2');
    const checkpointer = new SqliteCheckpointer({ path: database });
    const graph = buildPipelineGraph({ checkpointer, executionLog: log });
    assert.equal(await graph.abandon('stuck', 'server restarted'), true);
    const state = await graph.getState('stuck');
    assert.equal(state?.status, 'failed');
    assert.equal((await graph.history('stuck')).at(-1)?.error?.message, 'server restarted');
    const next = await graph.invoke(
      { notes: { node: 'input', text: 'again' } },
      { threadId: 'stuck' },
    );
    assert.equal(next.total, 1 + 21);
    await checkpointer.close();
  });

  it('restores every thread from a reopened SQLite file', async () => {
    const database = join(directory, 'reopen.sqlite');
    const first = new SqliteCheckpointer({ path: database });
    const graph = buildChatFixtureGraph({ checkpointer: first });
    for (let turn = 1; turn <= 5; turn += 1) {
      await graph.invoke(chatFixtureInput(turn), { threadId: 'persist' });
    }
    const before = await graph.getState('persist');
    await first.close();

    const second = new SqliteCheckpointer({ path: database });
    const reopened = buildChatFixtureGraph({ checkpointer: second });
    const after = await reopened.getState('persist');
    assert.deepEqual(after, before);
    await reopened.invoke(chatFixtureInput(6), { threadId: 'persist' });
    assert.equal((await reopened.getState('persist'))?.values.messages.length, 24);
    await second.close();
  });
});
