import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NodeContext } from '../../graph/index.ts';
import { SearchUnavailableError } from '../../knowledge/index.ts';
import type { AgentDependencies } from '../types.ts';
import type { ChatState } from './chat-state.ts';
import { decideRoute } from './decide-route.ts';
import { createRagNode } from './rag-node.ts';

const unavailable = {
  knowledge: {
    search: async () => {
      throw new SearchUnavailableError({
        backend: 'opensearch',
        reason: 'no connection: ECONNREFUSED',
      });
    },
  },
} as unknown as AgentDependencies;

const ragState = (question: string) =>
  ({ messages: [{ role: 'user', content: question }], passages: [] }) as unknown as ChatState;

describe('chat agent while knowledge search is unavailable', () => {
  it('routes a question to rag instead of failing the run or answering without documents', async () => {
    const decision = await decideRoute('연차 규정이 어떻게 되나요?', unavailable);
    assert.deepEqual(
      [decision.route, decision.reason, decision.passages],
      ['rag', 'knowledge search unavailable', []],
    );
    const llmRouter = await decideRoute('연차 규정이 어떻게 되나요?', {
      ...unavailable,
      routerMode: 'llm',
    });
    assert.equal(llmRouter.route, 'rag');
  });

  it('gives the model an honest context in the question’s language, with no sources', async () => {
    const rag = createRagNode(unavailable);
    const korean = await rag(ragState('연차는 며칠인가요?'), {} as NodeContext);
    assert.match(korean.context, /문서 검색을 지금 사용할 수 없습니다/);
    assert.deepEqual(korean.sources, []);
    const english = await rag(ragState('How many vacation days?'), {} as NodeContext);
    assert.match(english.context, /^The document search is unavailable right now/);
  });

  it('still fails the run on other search errors', async () => {
    const broken = {
      knowledge: {
        search: async () => {
          throw new Error('disk I/O error');
        },
      },
    } as unknown as AgentDependencies;
    await assert.rejects(decideRoute('연차 규정이 어떻게 되나요?', broken), /disk I\/O error/);
    await assert.rejects(createRagNode(broken)(ragState('연차'), {} as NodeContext), /disk I\/O/);
  });
});
