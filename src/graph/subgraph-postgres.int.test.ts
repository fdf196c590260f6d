import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { applyMigrations, createPostgresPool } from '../core/index.ts';
import {
  type PostgresServer,
  researchParent,
  researchSubgraph,
  startPostgresServer,
} from '../testing/internal/index.ts';
import { checkpointMigrations } from './checkpoint/postgres-checkpoint-migrations.ts';
import { PostgresCheckpointer } from './checkpoint/postgres-checkpointer.ts';

let server: PostgresServer;
before(async () => {
  server = await startPostgresServer();
});
after(() => server.stop());

describe('subgraphs on the postgres checkpointer', () => {
  it('pauses inside, resumes through the parent, and shows its steps in the history', async () => {
    const url = await server.createDatabase();
    const pool = await createPostgresPool({ url });
    await applyMigrations(pool, checkpointMigrations);
    await pool.end();
    const checkpointer = await PostgresCheckpointer.connect({ url });
    try {
      const sub = researchSubgraph({ ask: true });
      const { graph } = researchParent(sub.graph, checkpointer);
      const paused = await graph.run({ topic: 'tides' }, { threadId: 'p' });
      assert.equal(paused.status, 'interrupted');
      // A second graph on the same database sees the question, and answers it.
      const other = researchParent(sub.graph, checkpointer).graph;
      const question = (await other.getState('p'))?.interrupts[0];
      assert.deepEqual(question?.path, ['research', 'check']);
      const done = await other.resume('p', { answers: { [question?.id as string]: 'yes' } });
      assert.deepEqual(done.log, [
        'prepare',
        'search tides',
        'checked yes',
        'summarize',
        'finish with note on tides',
      ]);
      assert.deepEqual(sub.calls, { search: 1, check: 2, summarize: 1 });
      const inner = (await graph.history('p')).filter((entry) => entry.path !== undefined);
      assert.deepEqual(
        inner.map((entry) => `${entry.path?.join('/')} ${entry.kind}`),
        [
          'research input',
          'research/search node',
          'research/check interrupt',
          'research resume',
          'research/check node',
          'research/summarize node',
        ],
      );
      await graph.deleteThread('p');
      assert.deepEqual(await checkpointer.listThreads(), []);
    } finally {
      await checkpointer.close();
    }
  });
});
