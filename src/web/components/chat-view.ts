import { useEffect, useRef } from 'preact/hooks';
import type { ChatController } from '../chat/use-chat.ts';
import { html } from '../html.ts';
import { t } from '../i18n.ts';
import { Composer } from './composer.ts';
import { ErrorView } from './error-view.ts';
import { AssistantMessage, UserMessage } from './message-view.ts';

/** The conversation (scrolling with new text while the reader is at the bottom) and the composer. */
export function ChatView(props: { chat: ChatController }) {
  const { chat } = props;
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
        ${chat.summary ? html`<details class="summary"><summary>${t('summary')}</summary><p>${chat.summary}</p></details>` : null}
        ${chat.items.length === 0 && !chat.summary ? html`<p class="empty muted">${t('emptyChat')}</p>` : null}
        ${chat.items.map((item) =>
          item.kind === 'user'
            ? html`<${UserMessage} key=${item.key} item=${item} />`
            : html`<${AssistantMessage}
                key=${item.key}
                item=${item}
                sessionId=${chat.sessionId}
                runsVersion=${chat.runsVersion}
                inspected=${chat.inspectKey === item.key}
                latest=${item.key === lastAnswerKey}
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
