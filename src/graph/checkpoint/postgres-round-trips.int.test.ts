import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { applyMigrations, createPostgresPool, type PostgresPool } from '../../core/index.ts';
import {
  buildChatFixtureGraph,
  chatFixtureInput,
  type PostgresServer,
  startPostgresServer,
} from '../../testing/internal/index.ts';
import { entryFor } from './checkpointer-conformance.ts';
import { checkpointMigrations } from './postgres-checkpoint-migrations.ts';
import { PostgresCheckpointer } from './postgres-checkpointer.ts';

let server: PostgresServer;
let pool: PostgresPool;
before(async () => {
  server = await startPostgresServer();
  pool = await createPostgresPool({ url: await server.createDatabase() });
  await applyMigrations(pool, checkpointMigrations);
});
after(async () => {
  await pool.end();
  await server.stop();
});

/** The statements `work` sends to the server through `pool` (each one a round trip). */
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const query = pool.query.bind(pool);
  pool.query = ((...args: Parameters<typeof query>) => {
    const [first] = args as unknown as [string | { name?: string; text: string }];
    const text = typeof first === 'string' ? first : (first.name ?? first.text);
    // Counted by kind: a read from the start or past what this instance holds, and an append
    // of one row (one statement) or of several (the function), are one round trip each.
    // The heartbeat's timer is not part of a run.
    if (!text.includes('graph_instances'))
      sent.push(text.replace(/^(yeoul_graph_read|yeoul_graph_append)_.*$/, '$1'));
    return query(...args);
  }) as typeof pool.query;
  try {
    await work();
  } finally {
    pool.query = query;
  }
  return sent;
}

const appends = (count: number) => Array.from({ length: count }, () => 'yeoul_graph_append');

describe('postgres round trips per step', () => {
  it('costs a 5-step sync invoke one round trip per stored entry and no read, new thread or not', async () => {
    const checkpointer = await PostgresCheckpointer.open(pool);
    const graph = buildChatFixtureGraph({ checkpointer });
    // The input, then router, memory, agent, tools, agent.
    assert.deepEqual(
      await statementsOf(() => graph.invoke(chatFixtureInput(1), { threadId: 'trips-sync' })),
      appends(6),
    );
    assert.deepEqual(
      await statementsOf(() => graph.invoke(chatFixtureInput(2), { threadId: 'trips-sync' })),
      appends(6),
    );
    const state = await graph.getState('trips-sync');
    assert.equal(state?.values.messages.length, 8);
    assert.deepEqual(
      (await checkpointer.read('trips-sync')).entries.map((entry) => entry.seq),
      Array.from({ length: 12 }, (_, index) => index + 1),
    );
    await checkpointer.close();
  });

  for (const durability of ['async', 'exit'] as const) {
    it(`sends the steps of an ${durability} invoke together: one read and one append for six entries`, async () => {
      const checkpointer = await PostgresCheckpointer.open(pool);
      const graph = buildChatFixtureGraph({ checkpointer, durability });
      const threadId = `trips-${durability}`;
      for (const turn of [1, 2]) {
        assert.deepEqual(
          await statementsOf(() => graph.invoke(chatFixtureInput(turn), { threadId })),
          ['yeoul_graph_read', 'yeoul_graph_append'],
        );
      }
      // Each invoke's six entries went in one row (one insert on the server).
      const { rows } = await pool.query<{ first_seq: number; last_seq: number }>(
        'SELECT first_seq, last_seq FROM graph_segments WHERE thread_id = $1 ORDER BY first_seq',
        [threadId],
      );
      assert.deepEqual(
        rows.map((row) => [row.first_seq, row.last_seq]),
        [
          [1, 6],
          [7, 12],
        ],
      );
      const log = await checkpointer.read(threadId);
      assert.deepEqual(
        log.entries.map(
          (entry) => `${entry.seq} ${entry.kind} ${entry.node ?? '-'} ${entry.status}`,
        ),
        [1, 7].flatMap((first) => [
          `${first} input - running`,
          `${first + 1} node router running`,
          `${first + 2} node memory running`,
          `${first + 3} node agent running`,
          `${first + 4} node tools running`,
          `${first + 5} node agent done`,
        ]),
      );
      await checkpointer.close();
    });
  }

  it('reads a thread another instance moved and starts the run again on what it holds', async () => {
    const [first, second] = [
      await PostgresCheckpointer.open(pool),
      await PostgresCheckpointer.open(pool),
    ];
    const here = buildChatFixtureGraph({ checkpointer: first });
    const there = buildChatFixtureGraph({ checkpointer: second });
    await here.invoke(chatFixtureInput(1), { threadId: 'moved' });
    await there.invoke(chatFixtureInput(2), { threadId: 'moved' });
    // `here` still holds the thread after turn 1: its input append conflicts, then it reads.
    const sent = await statementsOf(() => here.invoke(chatFixtureInput(3), { threadId: 'moved' }));
    assert.deepEqual(sent, ['yeoul_graph_append', 'yeoul_graph_read', ...appends(6)]);
    const state = await here.getState('moved');
    assert.deepEqual(
      state?.values.messages
        .filter((message) => message.role === 'user')
        .map((message) => message.content.slice(-8)),
      ['(turn 1)', '(turn 2)', '(turn 3)'],
    );
    await Promise.all([first.close(), second.close()]);
  });

  it('fails the later steps of a run once one is lost, in the same call or a later one', async () => {
    const [mine, theirs] = [
      await PostgresCheckpointer.open(pool),
      await PostgresCheckpointer.open(pool),
    ];
    await mine.append(entryFor('lost', 1));
    await theirs.append(entryFor('lost', 2, { runId: 'theirs' }));
    // Handed over without waiting, as a run in async durability does: seq 3 would fit after
    // their 2, but it follows a step this run lost.
    const together = await Promise.allSettled([
      mine.append(entryFor('lost', 2)),
      mine.append(entryFor('lost', 3)),
    ]);
    assert.deepEqual(
      together.map((result) => result.status),
      ['rejected', 'rejected'],
    );
    await theirs.append(entryFor('lost', 3, { runId: 'theirs' }));
    await theirs.append(entryFor('lost', 4, { runId: 'theirs' }));
    const sent = mine.append(entryFor('lost', 4, { runId: 'run-2' }));
    // The first call is on its way; the next step waits for it, then fails with it.
    await new Promise((resolve) => setImmediate(resolve));
    const later = mine.append(entryFor('lost', 5, { runId: 'run-2' }));
    const apart = await Promise.allSettled([sent, later]);
    assert.deepEqual(
      apart.map((result) => result.status),
      ['rejected', 'rejected'],
    );
    assert.deepEqual(
      (await mine.read('lost')).entries.map((entry) => `${entry.seq} ${entry.runId}`),
      ['1 run-1', '2 theirs', '3 theirs', '4 theirs'],
    );
    await Promise.all([mine.close(), theirs.close()]);
  });
});
