import { useEffect, useRef } from 'preact/hooks';
import type { SessionSummary } from '../api/types.ts';
import type { ChatController } from '../chat/use-chat.ts';
import { html } from '../html.ts';
import { t } from '../i18n.ts';
import { useAccess } from './access-context.ts';
import { Composer } from './composer.ts';
import { ErrorView } from './error-view.ts';
import { ForkLinks } from './fork-links.ts';
import { AssistantMessage, UserMessage } from './message-view.ts';

interface ChatViewProps {
  chat: ChatController;
  /** The owner's sessions: the open one's original and forks are linked from them. */
  sessions: SessionSummary[];
  onOpen: (id: string) => void;
}

/**
 * The conversation (scrolling with new text while the reader is at the bottom), its fork
 * links, and the composer. User messages can be edited and the last answer regenerated
 * (credentials that may write): both run on a fork.
 */
export function ChatView(props: ChatViewProps) {
  const { chat } = props;
  const { write } = useAccess();
  const log = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);

  useEffect(() => {
    const element = log.current;
    if (element && pinned.current) element.scrollTop = element.scrollHeight;
  });
  const onScroll = () => {
    const element = log.current;
    if (element)
      pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
  };
  const lastAnswerKey = chat.items.findLast((item) => item.kind === 'assistant')?.key;
  const lastUser = chat.items.findLast((item) => item.kind === 'user');

  return html`
    <section class="chat" aria-label=${t('chat')}>
      <div
        class="log"
        ref=${log}
        role="log"
        aria-label=${t('chat')}
        tabindex="0"
        onScroll=${onScroll}
      >
        <${ForkLinks} sessionId=${chat.sessionId} sessions=${props.sessions} onOpen=${props.onOpen} />
        ${chat.summary ? html`<details class="summary"><summary>${t('summary')}</summary><p>${chat.summary}</p></details>` : null}
        ${chat.items.length === 0 && !chat.summary ? html`<p class="empty muted">${t('emptyChat')}</p>` : null}
        ${chat.items.map((item) =>
          item.kind === 'user'
            ? html`<${UserMessage}
                key=${item.key}
                item=${item}
                editable=${write && !chat.running}
                onEdit=${(text: string) => chat.askOnFork(item.key, text)}
              />`
            : html`<${AssistantMessage}
                key=${item.key}
                item=${item}
                sessionId=${chat.sessionId}
                runsVersion=${chat.runsVersion}
                inspected=${chat.inspectKey === item.key}
                latest=${item.key === lastAnswerKey}
                onRegenerate=${
                  write && item.key === lastAnswerKey && lastUser && !chat.running
                    ? () => chat.askOnFork(lastUser.key, lastUser.text)
                    : undefined
                }
                onInspect=${() => chat.inspect(item.key)}
                onDecide=${(
                  interrupt: Parameters<ChatController['decide']>[1],
                  approve: boolean,
                  reason?: string,
                ) => chat.decide(item.key, interrupt, approve, reason)}
              />`,
        )}
        ${chat.notice ? html`<${ErrorView} error=${chat.notice} />` : null}
      </div>
      <${Composer}
        key=${chat.sessionId}
        running=${chat.running}
        onSend=${chat.send}
        onStop=${chat.stop}
      />
    </section>
  `;
}
