import { useEffect, useRef, useState } from 'preact/hooks';
import { api, toErrorInfo } from '../api/api-client.ts';
import type { ErrorInfo, SearchHit } from '../api/types.ts';
import { html } from '../html.ts';
import { formatScore, t } from '../i18n.ts';
import { ErrorView } from './error-view.ts';

/** Tries the knowledge base: the passages and scores the agent would get for a query. */
export function DocumentSearch() {
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<SearchHit[] | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const latest = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const search = async (text: string) => {
    clearTimeout(timer.current);
    const ticket = ++latest.current;
    if (!text.trim()) {
      setHits(null);
      return;
    }
    try {
      const body = await api.search(text, 5);
      if (ticket !== latest.current) return;
      setHits(body.hits);
      setError(null);
    } catch (reason) {
      if (ticket === latest.current) setError(toErrorInfo(reason));
    }
  };
  useEffect(() => () => clearTimeout(timer.current), []);

  return html`
    <section class="search" aria-labelledby="search-title">
      <h3 id="search-title">${t('search')}</h3>
      <form
        role="search"
        onSubmit=${(event: Event) => {
          event.preventDefault();
          void search(query);
        }}
      >
        <label class="visually-hidden" for="document-search">${t('search')}</label>
        <input
          id="document-search"
          type="search"
          data-testid="document-search"
          placeholder=${t('searchPlaceholder')}
          value=${query}
          onInput=${(event: Event) => {
            const text = (event.target as HTMLInputElement).value;
            setQuery(text);
            clearTimeout(timer.current);
            timer.current = setTimeout(() => void search(text), 350);
          }}
        />
      </form>
      ${error ? html`<${ErrorView} error=${error} />` : null}
      ${hits?.length === 0 ? html`<p class="muted">${t('noHits')}</p>` : null}
      <ol class="hits" aria-live="polite">
        ${(hits ?? []).map(
          (hit) => html`<li key=${hit.chunkId} class="hit">
            <div class="hit-head">
              <span class="document-title">${hit.title || hit.documentId}</span>
              <span class="badge">${t('score', { score: formatScore(hit.score) })}</span>
            </div>
            <p class="passage">${hit.text}</p>
          </li>`,
        )}
      </ol>
    </section>
  `;
}
