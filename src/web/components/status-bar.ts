import { useEffect, useState } from 'preact/hooks';
import { getJson } from '../api/api-client.ts';
import type { AgentStatus } from '../api/types.ts';
import { html } from '../html.ts';
import { t } from '../i18n.ts';

/** The model in use, its last error, and how to configure a real one when it is the offline model. */
export function StatusBar(props: { runsVersion: number; authVersion: number }) {
  const [status, setStatus] = useState<AgentStatus | null>(null);

  useEffect(() => {
    let live = true;
    const load = () =>
      getJson<AgentStatus>('/api/agent/status')
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
