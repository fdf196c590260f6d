import type { ErrorInfo } from '../api/types.ts';
import { shortened } from '../chat/message-limit.ts';
import { html } from '../html.ts';
import { errorText } from '../i18n.ts';

/**
 * An error in words, with its code (and the server's own message when it says more, at most
 * 200 characters of it: a message may quote what was sent).
 */
export function ErrorView(props: { error: ErrorInfo }) {
  const { code } = props.error;
  const message = shortened(props.error.message);
  const words = errorText(code, message);
  return html`
    <div class="error" data-testid="error" role="alert">
      <span aria-hidden="true">⚠</span>
      <span>
        <strong>${words}</strong> <code class="code">${code}</code>
        ${message && message !== words ? html`<span class="muted"> — ${message}</span>` : null}
      </span>
    </div>
  `;
}
