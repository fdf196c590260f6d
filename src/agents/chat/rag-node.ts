import { isYeoulError } from '../../core/index.ts';
import type { NodeContext } from '../../graph/index.ts';
import { isKorean } from '../prompts.ts';
import type { AgentDependencies } from '../types.ts';
import type { ChatState } from './chat-state.ts';
import { searchUnavailableReason } from './decide-route.ts';

const passagesInContext = 4;

/**
 * The rag node (no LLM): the best passages into `context`, numbered, with their titles
 * and sections, and their document ids kept in `sources` for citations. Reuses what the
 * router already found, and does not search again when the router found the search away.
 */
export function createRagNode(deps: AgentDependencies) {
  return async (state: ChatState, _context: NodeContext) => {
    const question =
      [...state.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
    // The router found the search away just now: no second wait on it.
    if (state.routeReason === searchUnavailableReason) {
      return { context: searchUnavailableContext(question), sources: [], passages: [] };
    }
    let passages = state.passages;
    if (passages.length === 0) {
      try {
        passages = (await deps.knowledge?.search(question, { k: passagesInContext })) ?? [];
      } catch (error) {
        if (!isYeoulError(error, 'search_unavailable')) throw error;
        return { context: searchUnavailableContext(question), sources: [], passages: [] };
      }
    }
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

/**
 * The context when the knowledge search is unavailable: an honest note, in the question's
 * language, so that the model says the documents cannot be checked rather than that there
 * are none (an empty context would read as "nothing found").
 */
export function searchUnavailableContext(question: string): string {
  return isKorean(question)
    ? '문서 검색을 지금 사용할 수 없습니다(검색 색인에 연결할 수 없음). 문서 내용을 추측하지 말고, 문서를 지금 확인할 수 없다고 알려 주세요. 문서와 관계없는 질문이면 평소처럼 답하세요.'
    : 'The document search is unavailable right now (the search index cannot be reached). Do not guess what the documents say: tell the user they cannot be checked at the moment. Answer questions unrelated to the documents as usual.';
}
