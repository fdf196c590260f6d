import { useEffect, useState } from 'preact/hooks';
import { api, toErrorInfo } from '../api/api-client.ts';
import type { ErrorInfo, MemoryItemInfo } from '../api/types.ts';
import { html } from '../html.ts';
import { locale, t } from '../i18n.ts';
import { useAccess } from './access-context.ts';
import { ErrorView } from './error-view.ts';

/**
 * Long-term memory: what Yeoul keeps about the owner across conversations; credentials that
 * may write delete any of it.
 */
export function MemoryView(props: { version: number }) {
  const { write } = useAccess();
  const [items, setItems] = useState<MemoryItemInfo[] | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);

  useEffect(() => {
    let live = true;
    api.memory
      .list({ limit: 100 })
      .then((body) => live && setItems(body.items ?? []))
      .catch((reason: unknown) => live && setError(toErrorInfo(reason)));
    return () => {
      live = false;
    };
  }, [props.version]);

  const remove = async (item: MemoryItemInfo) => {
    setError(null);
    try {
      await api.memory.delete(item.namespace, item.key);
      setItems(
        (current) =>
          current?.filter(
            (entry) => entry.namespace !== item.namespace || entry.key !== item.key,
          ) ?? null,
      );
    } catch (reason) {
      setError(toErrorInfo(reason));
    }
  };

  return html`
    <section class="documents-view" aria-labelledby="memory-title">
      <h2 id="memory-title">${t('memory')}</h2>
      <p class="muted">${t('memoryIntro')}</p>
      ${error ? html`<${ErrorView} error=${error} />` : null}
      ${items === null && !error ? html`<p class="muted">${t('loading')}</p>` : null}
      ${items?.length === 0 ? html`<p class="muted">${t('noMemories')}</p>` : null}
      <ul class="document-list">
        ${(items ?? []).map(
          (item) => html`<li
            key=${`${item.namespace}/${item.key}`}
            class="document-item"
            data-testid="memory-item"
          >
            <div class="document-text">
              <span class="document-title">
                ${typeof item.value === 'string' ? item.value : JSON.stringify(item.value)}
              </span>
              <span class="muted document-meta">
                <code>${item.namespace}/${item.key}</code>
                ${` · ${new Date(item.updatedAt).toLocaleString(locale)}`}
              </span>
            </div>
            ${
              write
                ? html`<button
                    type="button"
                    data-testid="memory-delete"
                    aria-label=${t('deleteMemory', { key: `${item.namespace}/${item.key}` })}
                    onClick=${() => remove(item)}
                  >
                    ${t('delete')}
                  </button>`
                : null
            }
          </li>`,
        )}
      </ul>
    </section>
  `;
}
