import type { SessionSummary } from '../api/types.ts';
import { html } from '../html.ts';
import { t } from '../i18n.ts';

interface ForkLinksProps {
  sessionId: string;
  sessions: SessionSummary[];
  onOpen: (id: string) => void;
}

/**
 * Where the open session stands among its relatives: the original it was forked from (and at
 * which step), and the forks taken from it, each a link that opens that session.
 */
export function ForkLinks(props: ForkLinksProps) {
  const titleOf = (id: string) =>
    props.sessions.find((session) => session.sessionId === id)?.title?.trim() || id;
  const origin = props.sessions.find(
    (session) => session.sessionId === props.sessionId,
  )?.forkedFrom;
  const forks = props.sessions.filter(
    (session) => session.forkedFrom?.sessionId === props.sessionId,
  );
  if (!origin && forks.length === 0) return null;
  return html`
    <div class="fork-links">
      ${
        origin
          ? html`<p>
              <button
                type="button"
                class="link-button"
                data-testid="forked-from"
                data-session=${origin.sessionId}
                onClick=${() => props.onOpen(origin.sessionId)}
              >
                ↰ ${t(origin.step < 0 ? 'forkedFromStart' : 'forkedFrom', {
                  title: titleOf(origin.sessionId),
                  step: origin.step,
                })}
              </button>
            </p>`
          : null
      }
      ${
        forks.length > 0
          ? html`<nav data-testid="session-forks" aria-label=${t('forks')}>
              <span class="muted">${t('forks')}</span>
              ${forks.map(
                (fork) => html`<button
                  key=${fork.sessionId}
                  type="button"
                  class="link-button"
                  data-testid="fork-link"
                  data-session=${fork.sessionId}
                  onClick=${() => props.onOpen(fork.sessionId)}
                >
                  ${t((fork.forkedFrom?.step ?? 0) < 0 ? 'forkAtStart' : 'forkAt', {
                    title: titleOf(fork.sessionId),
                    step: fork.forkedFrom?.step ?? '',
                  })}
                </button>`,
              )}
            </nav>`
          : null
      }
    </div>
  `;
}
