import { useState } from 'preact/hooks';
import { apiKey, authHeaders, reportUnauthorized } from '../api/api-client.ts';
import type { ErrorInfo } from '../api/types.ts';
import { html } from '../html.ts';
import { t } from '../i18n.ts';
import { ErrorView } from './error-view.ts';

const accepted = '.txt,.text,.md,.markdown,.html,.htm,.pdf';

interface UploadState {
  name: string;
  percent: number;
  chunks?: number;
  error?: ErrorInfo;
}

/** POSTs one file as multipart (field `file`), reporting upload progress (fetch cannot). */
function uploadFile(
  file: File,
  onProgress: (percent: number) => void,
): Promise<{ chunks: number }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', '/api/documents');
    const sentKey = apiKey();
    for (const [name, value] of Object.entries(authHeaders({}, sentKey)))
      request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    request.onerror = () => reject({ code: 'network_error', message: '' } satisfies ErrorInfo);
    request.onload = () => {
      let body: { chunks?: number; error?: ErrorInfo } = {};
      try {
        body = JSON.parse(request.responseText);
      } catch {
        // Not JSON: the status says enough.
      }
      if (request.status === 401) reportUnauthorized(sentKey);
      if (request.status >= 200 && request.status < 300) resolve({ chunks: body.chunks ?? 0 });
      else reject(body.error ?? { code: `http_${request.status}`, message: request.statusText });
    };
    const form = new FormData();
    form.append('file', file, file.name);
    request.send(form);
  });
}

/** Adds documents: drop files on the zone or choose them; each shows its progress and outcome. */
export function DocumentUpload(props: { onUploaded: () => void }) {
  const [uploads, setUploads] = useState<UploadState[]>([]);
  const [dragging, setDragging] = useState(false);

  const update = (index: number, patch: Partial<UploadState>) =>
    setUploads((current) =>
      current.map((upload, at) => (at === index ? { ...upload, ...patch } : upload)),
    );

  const upload = async (files: File[]) => {
    if (files.length === 0) return;
    let offset = 0;
    setUploads((current) => {
      offset = current.length;
      return [...current, ...files.map((file) => ({ name: file.name, percent: 0 }))];
    });
    for (const [index, file] of files.entries()) {
      try {
        const { chunks } = await uploadFile(file, (percent) => update(offset + index, { percent }));
        update(offset + index, { percent: 100, chunks });
        props.onUploaded();
      } catch (error) {
        update(offset + index, { error: error as ErrorInfo });
      }
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void upload(Array.from(event.dataTransfer?.files ?? []));
  };
  return html`
    <section
      class=${`dropzone${dragging ? ' dragging' : ''}`}
      aria-labelledby="upload-title"
      onDragOver=${(event: DragEvent) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave=${() => setDragging(false)}
      onDrop=${onDrop}
    >
      <h3 id="upload-title">${t('addFiles')}</h3>
      <label for="document-upload">${t('dropHint')}</label>
      <input
        id="document-upload"
        type="file"
        multiple
        accept=${accepted}
        data-testid="document-upload"
        onChange=${(event: Event) => {
          const input = event.target as HTMLInputElement;
          void upload(Array.from(input.files ?? []));
          input.value = '';
        }}
      />
      <ul class="uploads" aria-live="polite">
        ${uploads.map(
          (item, index) => html`<li key=${index}>
            ${
              item.error
                ? html`<span>${item.name}</span> <${ErrorView} error=${item.error} />`
                : item.chunks !== undefined
                  ? html`<span class="ok">✓ ${t('uploaded', { name: item.name, chunks: item.chunks })}</span>`
                  : html`<span>${t('uploading', { name: item.name, percent: item.percent })}</span>
                      <progress max="100" value=${item.percent} aria-label=${item.name}></progress>`
            }
          </li>`,
        )}
      </ul>
    </section>
  `;
}
