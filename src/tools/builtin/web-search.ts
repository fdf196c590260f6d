import { z } from 'zod';
import { defineTool } from '../define-tool.ts';
import { ToolRequestError } from '../errors/tool-request-error.ts';
import { endpointUrl, fetchJson } from './fetch-json.ts';
import { capText, fitToSize } from './fit-to-size.ts';
import { parseAnswer } from './parse-answer.ts';
import { serviceMessage } from './status-error.ts';

const maxContentChars = 500;
const maxResultChars = 4_000;

const answerSchema = z.object({
  answer: z.string().nullable().optional(),
  results: z.array(
    z.object({
      title: z.string().nullable().optional(),
      url: z.string(),
      content: z.string().nullable().optional(),
      score: z.number().nullable().optional(),
    }),
  ),
});

/**
 * `web_search`: searches the web through Tavily; offered only when a Tavily key is
 * configured. Returns Tavily's short answer and the top results with a snippet of each.
 * @example
 * await executor.execute({ id: 'c1', name: 'web_search', args: { query: 'Node.js 24 release' } });
 */
export const webSearchTool = defineTool({
  name: 'web_search',
  description:
    'Searches the web (Tavily) for current information: news, recent events, prices, ' +
    'anything newer or narrower than an encyclopedia. Returns a short answer and the top ' +
    'results with a snippet and URL each.',
  inputSchema: z.object({
    query: z.string().trim().min(1).max(400).describe('What to search for, Korean or English'),
    limit: z.number().int().min(1).max(5).default(5).describe('How many results, 1–5'),
  }),
  maxResultChars,
  isAvailable: (env) => Boolean(env.keys.tavily),
  execute: async ({ query, limit }, context) => {
    const key = context.env.keys.tavily ?? '';
    const url = endpointUrl('Tavily', context.env.endpoints.tavily, {});
    const raw = await fetchJson(
      {
        service: 'Tavily',
        url,
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: { query, max_results: limit, search_depth: 'basic', include_answer: true },
        secrets: [key],
        explainStatus,
      },
      context,
    );
    const answer = parseAnswer('Tavily', answerSchema, raw);
    const results = answer.results.slice(0, limit).map((result) => ({
      title: capText(result.title ?? '', 200) || '(untitled)',
      url: capText(result.url, 300),
      content: capText((result.content ?? '').replace(/\s+/g, ' ').trim(), maxContentChars),
      ...(typeof result.score === 'number' ? { score: Math.round(result.score * 100) / 100 } : {}),
    }));
    const text = answer.answer?.trim();
    if (results.length === 0 && !text) return `No web results for ${JSON.stringify(query)}.`;
    const render = (kept: typeof results, omitted: number) => ({
      query,
      ...(text ? { answer: capText(text, 800) } : {}),
      results: kept,
      ...(omitted > 0 ? { omitted: `${omitted} more results left out to fit the size limit` } : {}),
    });
    return fitToSize(results, render, maxResultChars - 100);
  },
});

/** Tavily's own statuses: 432 and 433 mean the plan's credits or spending limit ran out. */
function explainStatus(status: number, body: unknown): ToolRequestError | undefined {
  const detail = serviceMessage(body)?.slice(0, 200);
  if (status === 401) {
    const hint = 'the server administrator must fix TAVILY_API_KEY; answer without web search';
    return new ToolRequestError({
      service: 'Tavily',
      problem: 'refused the configured API key',
      status,
      detail,
      hint,
    });
  }
  if (status === 432 || status === 433) {
    const hint = 'web search is unavailable until the plan renews; answer without it';
    return new ToolRequestError({
      service: 'Tavily',
      problem: 'usage limit reached',
      status,
      detail,
      hint,
    });
  }
  return undefined;
}
