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
    const chosen = inReadingOrder(passages.slice(0, passagesInContext));
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

/**
 * Passages grouped by document (best document first) and, within a document, in the
 * order they appear in it: sections read in their natural order, and an ambiguous
 * question sees a document's opening section first.
 */
function inReadingOrder<Passage extends { documentId: string; chunkId: string }>(
  passages: Passage[],
): Passage[] {
  const documentRank = new Map<string, number>();
  for (const passage of passages)
    if (!documentRank.has(passage.documentId))
      documentRank.set(passage.documentId, documentRank.size);
  const position = (passage: Passage) => Number(passage.chunkId.split('#').at(-1)) || 0;
  return [...passages].sort(
    (a, b) =>
      (documentRank.get(a.documentId) ?? 0) - (documentRank.get(b.documentId) ?? 0) ||
      position(a) - position(b),
  );
}
