import { type FakeHttpServer, type FakeReply, startFakeHttpServer } from './fake-http-server.ts';

/** An article of a fake wiki: its title and plain text, the first paragraph being the intro. */
export interface FakeArticle {
  title: string;
  text: string;
}

/** The fake MediaWiki: one wiki per language on one local server. */
export interface FakeMediaWiki extends FakeHttpServer {
  /** Stands in for `https://{lang}.wikipedia.org/w/api.php`; keeps the `{lang}` placeholder. */
  endpoint: string;
}

/** The articles the fake wikis hold unless a test gives its own. */
export const fakeWikiArticles: Record<string, FakeArticle[]> = {
  ko: [
    {
      title: '서울특별시',
      text: '서울특별시는 대한민국의 수도이자 최대 도시이다. 한강이 도시를 가로지른다.\n\n역사 문단.',
    },
    {
      title: '세종',
      text: '세종(1397년~1450년)은 조선의 제4대 국왕으로, 훈민정음(한글)을 창제하였다.\n\n생애.',
    },
    { title: '한글', text: '한글은 세종이 창제한 한국어의 고유 문자이다.\n\n구성.' },
    {
      title: '부산광역시',
      text: '부산광역시는 대한민국 남동부의 항구 도시로, 서울 다음가는 대도시이다.',
    },
  ],
  en: [
    {
      title: 'Seoul',
      text: 'Seoul, officially Seoul Special City, is the capital of South Korea.\n\nHistory.',
    },
    {
      title: 'Sejong the Great',
      text: 'Sejong the Great was the fourth monarch of Joseon, who created Hangul.\n\nLife.',
    },
    {
      title: 'Hangul',
      text: 'Hangul is the modern writing system of the Korean language, created by Sejong.',
    },
    { title: 'Long river', text: `The Long river is long. ${'It flows on and on. '.repeat(400)}` },
  ],
};

/**
 * Starts a fake MediaWiki Action API under `/{lang}/w/api.php`, speaking the real wire format
 * of `action=query&generator=search&prop=extracts|info`: pages (an array with `formatversion=2`,
 * else an object by page id) in page-id order with a search `index`, `{error: {code, info}}`
 * with status 200 for bad parameters, and no `query` key when nothing matches.
 */
export async function startFakeMediaWiki(
  articles: Record<string, FakeArticle[]> = fakeWikiArticles,
): Promise<FakeMediaWiki> {
  const server = await startFakeHttpServer(({ path, query }) => {
    const language = /^\/([a-z-]+)\/w\/api\.php$/.exec(path)?.[1];
    const wiki = language === undefined ? undefined : articles[language];
    if (language === undefined || wiki === undefined) {
      return {
        kind: 'text',
        status: 404,
        body: '<!DOCTYPE html><title>Not Found</title>',
        contentType: 'text/html',
      };
    }
    return search(query, language, wiki);
  });
  return { ...server, endpoint: `${server.url}/{lang}/w/api.php` };
}

function apiError(code: string, info: string): FakeReply {
  const error = { code, info, docref: 'See https://www.mediawiki.org/w/api.php for API usage.' };
  return { kind: 'json', body: { error, servedby: 'mw-api-fake' } };
}

function search(query: URLSearchParams, language: string, wiki: FakeArticle[]): FakeReply {
  if (query.get('action') !== 'query') {
    return apiError(
      'badvalue',
      `Unrecognized value for parameter "action": ${query.get('action')}.`,
    );
  }
  if (query.get('generator') !== 'search') return apiError('badvalue', 'Unrecognized generator.');
  const text = query.get('gsrsearch');
  if (text === null || text.trim() === '') {
    return apiError('missingparam', 'The "gsrsearch" parameter must be set.');
  }
  const limit = Number(query.get('gsrlimit') ?? 10);
  if (!(Number.isInteger(limit) && limit >= 1 && limit <= 500)) {
    return apiError('badinteger', 'Invalid value for parameter "gsrlimit".');
  }
  const props = new Set((query.get('prop') ?? '').split('|'));
  const maxChars = Number(query.get('exchars') ?? 0);
  const terms = text.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = wiki
    .map((article, position) => ({ article, pageid: 1000 + position * 37 }))
    .filter(({ article }) =>
      terms.every((term) => `${article.title} ${article.text}`.toLowerCase().includes(term)),
    )
    .sort((a, b) => titleHits(b.article, terms) - titleHits(a.article, terms));
  if (matches.length === 0) return { kind: 'json', body: { batchcomplete: true } };
  const pages = matches.slice(0, limit).map(({ article, pageid }, position) => {
    const intro = query.has('exintro') ? (article.text.split('\n\n')[0] ?? '') : article.text;
    const extract =
      maxChars > 0 && intro.length > maxChars ? `${intro.slice(0, maxChars)}…` : intro;
    const title = encodeURIComponent(article.title.replaceAll(' ', '_'));
    return {
      pageid,
      ns: 0,
      title: article.title,
      index: position + 1,
      ...(props.has('extracts') ? { extract } : {}),
      ...(props.has('info')
        ? {
            contentmodel: 'wikitext',
            pagelanguage: language,
            touched: '2025-04-30T12:00:00Z',
            length: article.text.length,
            ...(query.get('inprop') === 'url'
              ? { fullurl: `https://${language}.wikipedia.org/wiki/${title}` }
              : {}),
          }
        : {}),
    };
  });
  pages.sort((a, b) => a.pageid - b.pageid);
  const more =
    matches.length > limit ? { continue: { gsroffset: limit, continue: 'gsroffset||' } } : {};
  const asVersion2 = query.get('formatversion') === '2';
  return {
    kind: 'json',
    body: {
      batchcomplete: true,
      ...more,
      query: {
        pages: asVersion2 ? pages : Object.fromEntries(pages.map((page) => [page.pageid, page])),
      },
    },
  };
}

function titleHits(article: FakeArticle, terms: string[]): number {
  return terms.filter((term) => article.title.toLowerCase().includes(term)).length;
}
