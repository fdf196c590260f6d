import type { NodeContext } from '../../graph/index.ts';
import type { AgentDependencies } from '../types.ts';
import type { ChatState } from './chat-state.ts';

const passagesInContext = 4;

/**
 * The rag node (no LLM): the best passages into `context`, numbered, with their titles
 * and sections, and their document ids kept in `sources` for citations. Reuses what the
 * router already found.
 */
export function createRagNode(deps: AgentDependencies) {
  return async (state: ChatState, _context: NodeContext) => {
    const question =
      [...state.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
    const passages =
      state.passages.length > 0
        ? state.passages
        : ((await deps.knowledge?.search(question, { k: passagesInContext })) ?? []);
    const chosen = passages.slice(0, passagesInContext);
    const context = chosen
      .map(
        (passage, index) =>
          `[${index + 1}] ${passage.title}${passage.heading ? ` — ${passage.heading}` : ''}\n${passage.text}`,
      )
      .join('\n\n');
    return {
      context,
      sources: chosen.map((passage) => ({
        documentId: passage.documentId,
        chunkId: passage.chunkId,
        title: passage.title,
      })),
      passages: [],
    };
  };
}
