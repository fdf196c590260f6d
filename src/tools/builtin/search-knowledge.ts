import { z } from 'zod';
import { defineTool } from '../define-tool.ts';

const passageChars = 700;

/** `search_knowledge`: searches the knowledge base (company documents) and returns the best passages with their sources. */
export const searchKnowledgeTool = defineTool({
  name: 'search_knowledge',
  description:
    'Searches the knowledge base of ingested documents (policies, manuals, reports) in Korean or English. ' +
    'Returns the best passages with their document ids and titles, for answers with citations.',
  inputSchema: z.object({
    query: z.string().trim().min(1).max(500).describe('What to look for, in the user’s words'),
    k: z.number().int().min(1).max(10).default(4).describe('How many passages (1–10)'),
  }),
  isAvailable: (env) => env.knowledge !== undefined,
  async execute({ query, k }, { env }) {
    if (env.knowledge === undefined) throw new Error('no knowledge base is configured');
    const hits = await env.knowledge.search(query, { k });
    if (hits.length === 0) return `No passages in the knowledge base match "${query}".`;
    return {
      passages: hits.map((hit) => ({
        documentId: hit.documentId,
        chunkId: hit.chunkId,
        title: hit.title,
        ...(hit.heading ? { section: hit.heading } : {}),
        text: hit.text.length > passageChars ? `${hit.text.slice(0, passageChars)}…` : hit.text,
        score: Math.round(hit.score * 1000) / 1000,
      })),
    };
  },
});
