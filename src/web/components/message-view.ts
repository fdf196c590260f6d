import { useMemo } from 'preact/hooks';
import type { Interrupt } from '../api/types.ts';
import type { AssistantItem, UserItem } from '../chat/chat-items.ts';
import { html } from '../html.ts';
import { formatNumber, t } from '../i18n.ts';
import { renderMarkdown } from '../markdown.ts';
import { ErrorView } from './error-view.ts';
import { DecisionNote, InterruptCard } from './interrupt-card.ts';
import { EvaluationView, SourcesView } from './run-details.ts';
import { ToolCard } from './tool-card.ts';

/** What the person wrote: plain text, never markup. */
export function UserMessage(props: { item: UserItem }) {
  return html`
    <article class="message user" data-testid="message" data-role="user" aria-label=${t('you')}>
      <p class="bubble">${props.item.text}</p>
    </article>
  `;
}

interface AssistantProps {
  item: AssistantItem;
  sessionId: string;
  inspected: boolean;
  onInspect: () => void;
  onDecide: (interrupt: Interrupt, approve: boolean, reason?: string) => void;
}

/** The agent's turn: tool cards, approvals, the answer as sanitized Markdown, sources, verdict. */
export function AssistantMessage(props: AssistantProps) {
  const { item } = props;
  const answer = useMemo(() => renderMarkdown(item.text), [item.text]);
  const waiting = item.running && !item.text && item.tools.length === 0;
  const usage = item.usage;
  return html`
    <article
      class=${`message assistant${item.running ? ' running' : ''}`}
      data-testid="message"
      data-role="assistant"
      aria-busy=${item.running ? 'true' : 'false'}
      aria-label=${t('assistant')}
    >
      ${item.tools.map((tool) => html`<${ToolCard} key=${tool.id} tool=${tool} />`)}
      ${item.decisions.map((decision) => html`<${DecisionNote} key=${decision.id} decision=${decision} />`)}
      ${item.interrupts.map(
        (interrupt) => html`<${InterruptCard}
          key=${interrupt.id}
          interrupt=${interrupt}
          onDecide=${props.onDecide}
        />`,
      )}
      ${waiting ? html`<p class="muted thinking">${t('thinking')}</p>` : null}
      ${item.text ? html`<div class="answer markdown" dangerouslySetInnerHTML=${{ __html: answer }}></div>` : null}
      ${item.sources?.length ? html`<${SourcesView} sources=${item.sources} sessionId=${props.sessionId} />` : null}
      ${item.evaluation ? html`<${EvaluationView} evaluation=${item.evaluation} status=${item.status} />` : null}
      ${item.errors.map((error, index) => html`<${ErrorView} key=${index} error=${error} />`)}
      <footer class="message-meta">
        ${item.status === 'cancelled' ? html`<span class="badge">${t('cancelled')}</span>` : null}
        ${item.status === 'rejected' ? html`<span class="badge warn">${t('rejected')}</span>` : null}
        ${
          item.executionTime !== undefined
            ? html`<span>${t('seconds', { n: formatNumber(item.executionTime, 2) })}</span>`
            : null
        }
        ${
          usage
            ? html`<span>${t('usage', {
                calls: usage.llmCalls,
                input: formatNumber(usage.inputTokens),
                output: formatNumber(usage.outputTokens),
              })}</span>`
            : null
        }
        ${
          item.running
            ? null
            : html`<button
                type="button"
                class="link-button"
                data-testid="open-inspector"
                aria-pressed=${props.inspected ? 'true' : 'false'}
                onClick=${props.onInspect}
              >
                ${t('openInspector')}
              </button>`
        }
      </footer>
    </article>
  `;
}
