import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/api-client.ts';
import type { AgentStatus } from '../api/types.ts';
import { html } from '../html.ts';
import { t } from '../i18n.ts';
import { useAccess } from './access-context.ts';

/**
 * Who is signed in (`identity`: the owner as `GET /api/me` names it; nothing when no one
 * signs in), the model in use, its last error, and how to configure a real one when it is the
 * offline model.
 */
export function StatusBar(props: { runsVersion: number; authVersion: number }) {
  const [status, setStatus] = useState<AgentStatus | null>(null);
  const { owner } = useAccess();

  useEffect(() => {
    let live = true;
    const load = () =>
      api
        .status()
        .then((value) => live && setStatus(value))
        .catch(() => undefined);
    void load();
    // A config file saved under `yeoul dev` changes the status without a run: look again now and then.
    const timer = setInterval(load, 5000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [props.runsVersion, props.authVersion]);

  const offline = status?.model.startsWith('offline') ?? false;
  const error = status?.lastModelError;
  return html`
    <section class="status" data-testid="status" aria-label=${t('model')} aria-live="polite">
      <span class="status-model">
        <span class=${`dot ${status?.status === 'ok' ? 'ok' : 'warn'}`} aria-hidden="true"></span>
        ${t('model')}: <code>${status?.model ?? '…'}</code>
        ${status?.version ? html` <span class="muted">v${status.version}</span>` : null}
      </span>
      ${
        owner
          ? html`<span class="status-identity">
              ${t('signedInAs')} <code data-testid="identity">${owner}</code>
            </span>`
          : null
      }
      ${offline ? html`<span class="status-notice">${t('offlineNotice')}</span>` : null}
      ${
        error
          ? html`<span class="status-error">
              ${t('lastModelError', { code: error.code, message: error.message })}
            </span>`
          : null
      }
      ${
        status?.config?.state === 'error'
          ? html`<span class="status-error" data-testid="config-error">
              ${t('configError', { message: status.config.error ?? '' })}
            </span>`
          : null
      }
    </section>
  `;
}
