import { type FakeHttpServer, type FakeReply, startFakeHttpServer } from './fake-http-server.ts';

/** A page the fake search engine can find. */
export interface FakeWebPage {
  title: string;
  url: string;
  content: string;
}

/** The fake Tavily search API. */
export interface FakeTavily extends FakeHttpServer {
  /** Stands in for `https://api.tavily.com/search`. */
  searchUrl: string;
}

/** The pages the fake search engine holds unless a test gives its own. */
export const fakeWebPages: FakeWebPage[] = [
  {
    title: 'Node.js 24 released',
    url: 'https://nodejs.org/en/blog/release/v24.0.0',
    content: 'Node.js 24 ships with V8 13.6, npm 11 and type stripping enabled by default.',
  },
  {
    title: '서울 벚꽃 개화 시기',
    url: 'https://example.kr/news/seoul-cherry-blossom',
    content: '올해 서울 벚꽃은 4월 초에 개화할 것으로 예상된다.',
  },
  {
    title: 'Node.js release schedule',
    url: 'https://github.com/nodejs/release',
    content: 'Even-numbered Node.js releases become LTS in October.',
  },
];

const unauthorized = { detail: { error: 'Unauthorized: missing or invalid API key.' } };

/**
 * Starts a fake Tavily `POST /search` speaking its real wire format: a JSON body with
 * `query`, `max_results`, `search_depth`, `include_answer`; `Authorization: Bearer KEY`;
 * `{query, answer, results: [{title, url, content, score, raw_content}], response_time}`;
 * errors as `{detail: {error}}` with 400, 401 or 405.
 */
export async function startFakeTavily(options: {
  apiKey: string;
  pages?: FakeWebPage[];
}): Promise<FakeTavily> {
  const pages = options.pages ?? fakeWebPages;
  const server = await startFakeHttpServer(({ method, path, headers, body }) => {
    if (path !== '/search') return { kind: 'json', status: 404, body: { detail: 'Not Found' } };
    if (method !== 'POST')
      return { kind: 'json', status: 405, body: { detail: 'Method Not Allowed' } };
    if (headers.authorization !== `Bearer ${options.apiKey}`) {
      return { kind: 'json', status: 401, body: unauthorized };
    }
    let request: Record<string, unknown>;
    try {
      request = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return { kind: 'json', status: 400, body: { detail: { error: 'Invalid JSON body.' } } };
    }
    return search(request, pages);
  });
  return { ...server, searchUrl: `${server.url}/search` };
}

function search(request: Record<string, unknown>, pages: FakeWebPage[]): FakeReply {
  const query = request.query;
  if (typeof query !== 'string' || query.trim() === '') {
    return { kind: 'json', status: 400, body: { detail: { error: 'Query is missing.' } } };
  }
  const maxResults = request.max_results ?? 5;
  if (typeof maxResults !== 'number' || maxResults < 0 || maxResults > 20) {
    return {
      kind: 'json',
      status: 400,
      body: { detail: { error: 'max_results must be 0 to 20.' } },
    };
  }
  const depth = request.search_depth ?? 'basic';
  if (depth !== 'basic' && depth !== 'advanced') {
    return { kind: 'json', status: 400, body: { detail: { error: 'Invalid search depth.' } } };
  }
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  const scored = pages
    .map((page) => {
      const text = `${page.title} ${page.content}`.toLowerCase();
      const hits = terms.filter((term) => text.includes(term)).length;
      return { page, score: Math.round((hits / terms.length) * 0.9 * 1e5) / 1e5 };
    })
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, maxResults);
  const results = scored.map(({ page, score }) => ({ ...page, score, raw_content: null }));
  const answer = request.include_answer && results[0] ? results[0].content : null;
  return {
    kind: 'json',
    body: {
      query,
      follow_up_questions: null,
      answer,
      images: [],
      results,
      response_time: 0.87,
      request_id: 'fake-0001',
    },
  };
}
