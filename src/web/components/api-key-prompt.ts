import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../html.ts';
import { t } from '../i18n.ts';

/**
 * Asks for an API key or an end-user token, in one field (Enter submits); shown again whenever
 * the API answers 401 (a wrong key, an expired token), then saying that what was given was refused.
 */
export function ApiKeyPrompt(props: {
  initial: string;
  refused: boolean;
  onSubmit: (key: string) => void;
}) {
  const [key, setKey] = useState(props.initial);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);

  const submit = (event: Event) => {
    event.preventDefault();
    if (key.trim()) props.onSubmit(key.trim());
  };
  return html`
    <div class="overlay">
      <form
        class="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="api-key-title"
        onSubmit=${submit}
      >
        <h2 id="api-key-title">${t('apiKeyTitle')}</h2>
        <p>${t('apiKeyText')}</p>
        ${
          props.refused
            ? html`<p class="error" data-testid="api-key-error" role="alert">${t('apiKeyRefused')}</p>`
            : null
        }
        <label for="api-key">${t('apiKey')}</label>
        <input
          id="api-key"
          ref=${input}
          type="password"
          autocomplete="current-password"
          data-testid="api-key-input"
          value=${key}
          onInput=${(event: Event) => setKey((event.target as HTMLInputElement).value)}
        />
        <button type="submit" class="primary">${t('continue')}</button>
      </form>
    </div>
  `;
}
