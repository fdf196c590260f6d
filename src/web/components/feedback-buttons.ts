import { useState } from 'preact/hooks';
import { api, toErrorInfo } from '../api/api-client.ts';
import type { ErrorInfo } from '../api/types.ts';
import { html } from '../html.ts';
import { t } from '../i18n.ts';
import { ErrorView } from './error-view.ts';

/** Thumbs up and down, drawn (no emoji font needed): the paths of Feather's icons (MIT). */
const thumbs = {
  up: 'M14 9V5a3 3 0 0 0-3-3l-4 9v11h11.28a2 2 0 0 0 2-1.7l1.38-9a2 2 0 0 0-2-2.3zM7 22H4a2 2 0 0 1-2-2v-7a2 2 0 0 1 2-2h3',
  down: 'M10 15v4a3 3 0 0 0 3 3l4-9V2H5.72a2 2 0 0 0-2 1.7l-1.38 9a2 2 0 0 0 2 2.3zm7-13h2.67A2.31 2.31 0 0 1 22 4v7a2.31 2.31 0 0 1-2.33 2H17',
} as const;

const icon = (path: string) =>
  html`<svg
    class="icon"
    viewBox="0 0 24 24"
    width="16"
    height="16"
    fill="none"
    stroke="currentColor"
    stroke-width="2"
    stroke-linecap="round"
    stroke-linejoin="round"
    aria-hidden="true"
    focusable="false"
  ><path d=${path}></path></svg>`;

/**
 * Thumbs up / down under an answer: rates the session's last answer (POST
 * /api/sessions/:id/feedback). Older answers show the buttons disabled, since the API rates
 * the latest one.
 */
export function FeedbackButtons(props: { sessionId: string; latest: boolean }) {
  const [rating, setRating] = useState<1 | -1 | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const rate = async (value: 1 | -1) => {
    setError(null);
    try {
      await api.sessions.feedback(props.sessionId, { rating: value });
      setRating(value);
    } catch (reason) {
      setError(toErrorInfo(reason));
    }
  };
  const button = (value: 1 | -1, testId: string, label: string, face: unknown) =>
    html`<button
      type="button"
      class="feedback-button"
      data-testid=${testId}
      aria-label=${label}
      title=${props.latest ? label : t('rateLatestOnly')}
      aria-pressed=${rating === value ? 'true' : 'false'}
      disabled=${!props.latest}
      onClick=${() => rate(value)}
    >
      ${face}
    </button>`;
  return html`<span class="feedback" role="group" aria-label=${t('rated')}>
    ${button(1, 'feedback-up', t('rateUp'), icon(thumbs.up))}
    ${button(-1, 'feedback-down', t('rateDown'), icon(thumbs.down))}
    ${rating === null ? null : html`<span class="muted" role="status">${t('rated')}</span>`}
    ${error ? html`<${ErrorView} error=${error} />` : null}
  </span>`;
}
