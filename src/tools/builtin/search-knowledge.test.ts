import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createToolEnvironment } from '../environment.ts';
import { ToolRegistry } from '../registry.ts';
import { ToolExecutor } from '../tool-executor.ts';
import type { KnowledgeSearcher } from '../types.ts';
import { searchKnowledgeTool } from './search-knowledge.ts';

const passages = [
  {
    documentId: 'd1',
    chunkId: 'd1#0',
    title: '휴가 정책',
    heading: '연차',
    text: '연차는 15일입니다.',
    score: 3.21,
  },
];

function executorWith(knowledge?: KnowledgeSearcher) {
  const env = createToolEnvironment({
    dataDir: '/tmp/unused',
    ...(knowledge ? { knowledge } : {}),
  });
  return new ToolExecutor(new ToolRegistry().register(searchKnowledgeTool), { env });
}

describe('search_knowledge tool', () => {
  it('returns passages with ids, titles and sections', async () => {
    const seen: Array<[string, number | undefined]> = [];
    const executor = executorWith({
      search: async (query, options) => {
        seen.push([query, options?.k]);
        return passages;
      },
    });
    const result = await executor.execute({
      id: '1',
      name: 'search_knowledge',
      args: { query: '휴가 정책' },
    });
    assert.equal(result.isError, false);
    assert.deepEqual(JSON.parse(result.content), {
      passages: [
        {
          documentId: 'd1',
          chunkId: 'd1#0',
          title: '휴가 정책',
          section: '연차',
          text: '연차는 15일입니다.',
          score: 3.21,
        },
      ],
    });
    assert.deepEqual(seen, [['휴가 정책', 4]]);
  });

  it('says plainly when nothing matches', async () => {
    const executor = executorWith({ search: async () => [] });
    const result = await executor.execute({
      id: '1',
      name: 'search_knowledge',
      args: { query: 'nothing' },
    });
    assert.equal(result.content, 'No passages in the knowledge base match "nothing".');
  });

  it('is not offered without a knowledge base', async () => {
    const result = await executorWith().execute({
      id: '1',
      name: 'search_knowledge',
      args: { query: 'x' },
    });
    assert.equal(result.isError, true);
    assert.match(result.content, /unknown tool "search_knowledge"/);
  });

  it('refuses an empty query', async () => {
    const executor = executorWith({ search: async () => passages });
    const result = await executor.execute({
      id: '1',
      name: 'search_knowledge',
      args: { query: '   ' },
    });
    assert.match(result.content, /^Error: invalid arguments for search_knowledge: query/);
  });
});
