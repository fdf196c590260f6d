import { useEffect, useState } from 'preact/hooks';
import { api, toErrorInfo } from '../api/api-client.ts';
import type { DocumentInfo, ErrorInfo } from '../api/types.ts';
import { html } from '../html.ts';
import { locale, t } from '../i18n.ts';
import { useAccess } from './access-context.ts';
import { DocumentSearch } from './document-search.ts';
import { DocumentUpload } from './document-upload.ts';
import { ErrorView } from './error-view.ts';

/**
 * The knowledge base: see documents and try a search; add and delete files with credentials
 * that may change it (`yeoul:documents`), else a note says they may not.
 */
export function DocumentsView(props: { version: number }) {
  const { documents: mayChange } = useAccess();
  const [documents, setDocuments] = useState<DocumentInfo[] | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    let live = true;
    api.documents
      .list()
      .then((body) => live && setDocuments(body.documents))
      .catch((reason: unknown) => live && setError(toErrorInfo(reason)));
    return () => {
      live = false;
    };
  }, [props.version, reloads]);

  const remove = async (id: string) => {
    setError(null);
    try {
      await api.documents.delete(id);
      setDocuments((current) => current?.filter((document) => document.id !== id) ?? null);
    } catch (reason) {
      setError(toErrorInfo(reason));
    }
  };

  return html`
    <section class="documents-view" aria-labelledby="documents-title">
      <h2 id="documents-title">${t('documents')}</h2>
      ${
        mayChange
          ? html`<${DocumentUpload} onUploaded=${() => setReloads((count) => count + 1)} />`
          : html`<p class="muted" data-testid="documents-read-only">${t('documentsReadOnly')}</p>`
      }
      <${DocumentSearch} />
      ${error ? html`<${ErrorView} error=${error} />` : null}
      <h3>${t('storedDocuments', { n: documents?.length ?? 0 })}</h3>
      ${documents === null && !error ? html`<p class="muted">${t('loading')}</p>` : null}
      ${documents?.length === 0 ? html`<p class="muted">${t('noDocuments')}</p>` : null}
      <ul class="document-list">
        ${(documents ?? []).map(
          (
            document,
          ) => html`<li key=${document.id} class="document-item" data-testid="document-item">
            <div class="document-text">
              <span class="document-title">${document.title || document.id}</span>
              <span class="muted document-meta">
                <code>${document.id}</code> · ${t('passages', { n: document.chunks })}
                ${document.updatedAt ? ` · ${new Date(document.updatedAt).toLocaleString(locale)}` : ''}
              </span>
            </div>
            ${
              mayChange
                ? html`<button
                    type="button"
                    data-testid="document-delete"
                    aria-label=${t('deleteDocument', { title: document.title || document.id })}
                    onClick=${() => remove(document.id)}
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
