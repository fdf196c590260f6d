import { useEffect, useState } from 'preact/hooks';
import { api, toErrorInfo } from '../api/api-client.ts';
import type { DocumentInfo, ErrorInfo } from '../api/types.ts';
import { html } from '../html.ts';
import { locale, t } from '../i18n.ts';
import { DocumentSearch } from './document-search.ts';
import { DocumentUpload } from './document-upload.ts';
import { ErrorView } from './error-view.ts';

/** The knowledge base: add files, see and delete documents, and try a search. */
export function DocumentsView(props: { version: number }) {
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
      <${DocumentUpload} onUploaded=${() => setReloads((count) => count + 1)} />
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
            <button
              type="button"
              data-testid="document-delete"
              aria-label=${t('deleteDocument', { title: document.title || document.id })}
              onClick=${() => remove(document.id)}
            >
              ${t('delete')}
            </button>
          </li>`,
        )}
      </ul>
    </section>
  `;
}
