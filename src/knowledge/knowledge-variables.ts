import { z } from 'zod';
import { environmentVariable } from '../core/index.ts';

/** The environment variables of the knowledge base's search index. */
export const knowledgeVariables = z.object({
  YEOUL_SEARCH_URL: environmentVariable(z.string().optional(), {
    meaning:
      '`opensearch:URL`: the knowledge base’s search index lives in an OpenSearch cluster (`?index=NAME` names its alias; Korean analyzer `nori` when installed, CJK bigrams otherwise)',
    default: 'unset = the store’s own index (SQLite, or PostgreSQL with `DATABASE_URL`)',
  }),
  OPENSEARCH_USERNAME: environmentVariable(z.string().optional(), {
    meaning: 'the OpenSearch user, when `YEOUL_SEARCH_URL` carries none',
  }),
  OPENSEARCH_PASSWORD: environmentVariable(z.string().optional(), {
    meaning: 'that user’s password',
  }),
});

/** The knowledge base's variables as read: trimmed, an empty value unset. */
export type KnowledgeVariables = z.output<typeof knowledgeVariables>;
