import { useState } from 'preact/hooks';
import { api, toErrorInfo } from '../api/api-client.ts';
import type { ErrorInfo } from '../api/types.ts';
import { html } from '../html.ts';
import { t } from '../i18n.ts';
import { ErrorView } from './error-view.ts';

/**
 * 👍 / 👎 under an answer: rates the session's last answer (POST
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
  const button = (value: 1 | -1, testId: string, label: string, face: string) =>
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
    ${button(1, 'feedback-up', t('rateUp'), '👍')} ${button(-1, 'feedback-down', t('rateDown'), '👎')}
    ${rating === null ? null : html`<span class="muted" role="status">${t('rated')}</span>`}
    ${error ? html`<${ErrorView} error=${error} />` : null}
  </span>`;
}
