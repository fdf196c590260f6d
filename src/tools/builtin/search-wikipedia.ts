import { z } from 'zod';
import { defineTool } from '../define-tool.ts';
import { ToolRequestError } from '../errors/tool-request-error.ts';
import { endpointUrl, fetchJson } from './fetch-json.ts';
import { capText, fitToSize } from './fit-to-size.ts';
import { hasHangul } from './has-hangul.ts';
import { parseAnswer } from './parse-answer.ts';

/** Wikimedia asks API clients to say who they are. */
const userAgent = 'Yeoul/0.1 (self-hosted AI agent server; search_wikipedia tool)';
const maxExtractChars = 600;
const maxResultChars = 4_000;

const answerSchema = z.object({
  error: z.object({ code: z.string(), info: z.string().optional() }).optional(),
  query: z
    .object({
      pages: z.array(
        z.object({
          title: z.string(),
          index: z.number().optional(),
          extract: z.string().optional(),
          fullurl: z.string().optional(),
        }),
      ),
    })
    .optional(),
});

/**
 * `search_wikipedia`: searches Korean Wikipedia for Korean queries and English
 * Wikipedia otherwise, in one MediaWiki API call; returns titles, intro extracts and URLs.
 * @example
 * await executor.execute({ id: 'c1', name: 'search_wikipedia', args: { query: '세종대왕' } });
 */
export const searchWikipediaTool = defineTool({
  name: 'search_wikipedia',
  description:
    'Searches Wikipedia (Korean Wikipedia for Korean queries, English otherwise) and returns ' +
    'the best matching articles with the opening text of each and its URL. Use it for facts ' +
    'about people, places, history, science and other encyclopedic topics.',
  maxResultChars,
  inputSchema: z.object({
    query: z.string().trim().min(1).max(300).describe('What to search for, Korean or English'),
    limit: z.number().int().min(1).max(5).default(3).describe('How many articles, 1–5'),
  }),
  execute: async ({ query, limit }, context) => {
    const language = hasHangul(query) ? 'ko' : 'en';
    const base = context.env.endpoints.wikipedia.replaceAll('{lang}', language);
    const url = endpointUrl('Wikipedia', base, {
      action: 'query',
      format: 'json',
      formatversion: '2',
      generator: 'search',
      gsrsearch: query,
      gsrlimit: String(limit),
      prop: 'extracts|info',
      exintro: '1',
      explaintext: '1',
      exchars: String(maxExtractChars),
      exlimit: String(limit),
      inprop: 'url',
      redirects: '1',
      origin: '*',
    });
    const headers = { 'user-agent': userAgent, 'api-user-agent': userAgent };
    const answer = parseAnswer(
      'Wikipedia',
      answerSchema,
      await fetchJson({ service: 'Wikipedia', url, headers }, context),
    );
    if (answer.error !== undefined) throw apiError(answer.error.code, answer.error.info);
    const pages = [...(answer.query?.pages ?? [])]
      .sort((a, b) => (a.index ?? Number.MAX_SAFE_INTEGER) - (b.index ?? Number.MAX_SAFE_INTEGER))
      .slice(0, limit);
    const wiki = `${language}.wikipedia.org`;
    if (pages.length === 0) return `No Wikipedia results for ${JSON.stringify(query)} (${wiki}).`;
    const results = pages.map((page) => ({
      title: capText(page.title, 200),
      url: page.fullurl === undefined ? undefined : capText(page.fullurl, 300),
      extract: capText((page.extract ?? '').trim(), maxExtractChars) || '(no summary)',
    }));
    const render = (kept: typeof results, omitted: number) => ({
      query,
      wiki,
      results: kept,
      ...(omitted > 0 ? { omitted: `${omitted} more results left out to fit the size limit` } : {}),
    });
    return fitToSize(results, render, maxResultChars - 100);
  },
});

function apiError(code: string, info: string | undefined): ToolRequestError {
  const busy = code === 'maxlag' || code === 'ratelimited' || code === 'readonly';
  return new ToolRequestError({
    service: 'Wikipedia',
    problem: busy ? 'is busy' : 'rejected the search',
    detail: capText(`${code}: ${info ?? ''}`.replace(/\s+/g, ' '), 200),
    hint: busy ? 'wait a little before trying again' : 'rephrase the query with plain words',
  });
}
