import type { SessionSummary } from '../api/types.ts';
import { html } from '../html.ts';
import { t } from '../i18n.ts';
import { useAccess } from './access-context.ts';

/** A row of the list: a listed session, or the open one the server does not list yet. */
type SessionRow = Pick<SessionSummary, 'sessionId' | 'title'> & Partial<SessionSummary>;

interface SessionListProps {
  /** The owner's sessions, newest first (`useSessions`). */
  sessions: SessionSummary[];
  current: string;
  /** The open session's first message, while the server does not list it yet. */
  pendingTitle: string;
  onNew: () => void;
  onOpen: (id: string) => void;
  onDelete: (id: string) => Promise<void>;
}

/**
 * The conversations, newest first, each named by its first message (a fork marked so):
 * open, delete (credentials that may write), or start anew.
 */
export function SessionList(props: SessionListProps) {
  const { sessions } = props;
  const { write } = useAccess();
  const listed = sessions.some((session) => session.sessionId === props.current);
  const shown: SessionRow[] =
    !listed && props.pendingTitle
      ? [{ sessionId: props.current, title: props.pendingTitle }, ...sessions]
      : sessions;
  const titleOf = (session: SessionRow) =>
    session.title?.trim() ||
    (session.sessionId === props.current ? props.pendingTitle : '') ||
    session.sessionId;

  return html`
    <nav class="sessions" aria-label=${t('conversations')}>
      <div class="sessions-head">
        <h2>${t('conversations')}</h2>
        <button type="button" class="primary" data-testid="new-session" onClick=${props.onNew}>
          + ${t('newSession')}
        </button>
      </div>
      ${shown.length === 0 ? html`<p class="muted">${t('noSessions')}</p>` : null}
      <ul class="session-list">
        ${shown.map((session) => {
          const title = titleOf(session);
          return html`<li key=${session.sessionId} class="session-row">
            <button
              type="button"
              class="session-item"
              data-testid="session-item"
              aria-current=${session.sessionId === props.current ? 'true' : undefined}
              title=${title}
              onClick=${() => props.onOpen(session.sessionId)}
            >
              ${title}
            </button>
            ${session.forkedFrom ? html`<span class="badge fork-badge" data-testid="fork-badge">${t('fork')}</span>` : null}
            ${
              write
                ? html`<button
                    type="button"
                    class="icon-button"
                    data-testid="delete-session"
                    aria-label=${t('deleteSession', { title })}
                    title=${t('deleteSession', { title })}
                    onClick=${() => props.onDelete(session.sessionId)}
                  >
                    <span aria-hidden="true">×</span>
                  </button>`
                : null
            }
          </li>`;
        })}
      </ul>
    </nav>
  `;
}
