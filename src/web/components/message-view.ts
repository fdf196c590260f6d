import { useEffect, useRef, useState } from 'preact/hooks';
import type { Interrupt } from '../api/types.ts';
import type { AssistantItem, UserItem } from '../chat/chat-items.ts';
import { html } from '../html.ts';
import { formatNumber, t } from '../i18n.ts';
import { renderMarkdown } from '../markdown.ts';
import { useAccess } from './access-context.ts';
import { ErrorView } from './error-view.ts';
import { FeedbackButtons } from './feedback-buttons.ts';
import { GuardrailNote } from './guardrail-note.ts';
import { DecisionNote, InterruptCard } from './interrupt-card.ts';
import { MessageEditor } from './message-editor.ts';
import { EvaluationView, SourcesView } from './run-details.ts';
import { ToolCard } from './tool-card.ts';

interface UserProps {
  item: UserItem;
  /** Whether it may be edited now (no run going). */
  editable: boolean;
  /** Runs the edited text on a fork taken before this message. */
  onEdit: (text: string) => void;
}

/**
 * What the person wrote: plain text, never markup; "edit" reopens it in place. The edit
 * button's mark is drawn by CSS, so the message's text stays exactly what was written.
 * A message a guardrail blocked says so (`data-blocked`).
 */
export function UserMessage(props: UserProps) {
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const cancelled = useRef(false);
  // A cancelled edit gives the focus back to its button (keyboard users stay in place).
  useEffect(() => {
    if (editing || !cancelled.current) return;
    cancelled.current = false;
    editButton.current?.focus();
  }, [editing]);
  const save = (text: string) => {
    setEditing(false);
    props.onEdit(text);
  };
  const cancel = () => {
    cancelled.current = true;
    setEditing(false);
  };
  return html`
    <article
      class=${`message user${props.item.blocked ? ' blocked' : ''}`}
      data-testid="message"
      data-role="user"
      data-blocked=${props.item.blocked ? 'true' : undefined}
      aria-label=${t('you')}
    >
      ${props.item.blocked ? html`<span class="badge warn">${t('blockedMessage')}</span>` : null}
      ${
        editing
          ? html`<${MessageEditor}
              initial=${props.item.text}
              onSave=${save}
              onCancel=${cancel}
            />`
          : html`<p class="bubble">${props.item.text}</p>`
      }
      ${
        editing || !props.editable || props.item.unsent
          ? null
          : html`<button
              type="button"
              ref=${editButton}
              class="icon-button message-action"
              data-testid="edit-message"
              aria-label=${t('editMessageLabel')}
              title=${t('editMessageLabel')}
              onClick=${() => setEditing(true)}
            ></button>`
      }
    </article>
  `;
}

interface AssistantProps {
  item: AssistantItem;
  sessionId: string;
  /** The chat's runsVersion (the sources read the stored history of that version). */
  runsVersion: number;
  inspected: boolean;
  /** Whether this is the session's latest answer (the one the thumbs rate). */
  latest: boolean;
  /** Asks the question again on a fork (only the latest answer, when no run is going). */
  onRegenerate?: () => void;
  onInspect: () => void;
  onDecide: (interrupt: Interrupt, approve: boolean, reason?: string) => void;
}

/** How often, at most, a streaming answer is rendered as Markdown again. */
const streamingRenderMs = 200;

/**
 * The answer as sanitized HTML. While the run streams, the whole text is rendered again at
 * most every `streamingRenderMs` (then with the latest text), not on every token batch:
 * rendering is linear in the text, so doing it per batch would be quadratic over a long answer.
 * Once the run is over, the final text is rendered at once.
 */
function useAnswerHtml(text: string, running: boolean): string {
  const rendered = useRef({ text: '', html: '', at: 0 });
  const [woken, wake] = useState(0);
  const now = Date.now();
  if (
    rendered.current.text !== text &&
    (!running || now - rendered.current.at >= streamingRenderMs)
  ) {
    rendered.current = { text, html: renderMarkdown(text), at: now };
  }
  const behind = rendered.current.text !== text;
  useEffect(() => {
    if (!behind) return;
    const wait = rendered.current.at + streamingRenderMs - Date.now();
    const timer = setTimeout(() => wake((count) => count + 1), Math.max(0, wait));
    return () => clearTimeout(timer);
  }, [behind, text, woken]);
  return rendered.current.html;
}

/**
 * The agent's turn: tool cards, approvals, what the guardrails did, the answer as sanitized
 * Markdown, sources, verdict; the thumbs for credentials that may write.
 */
export function AssistantMessage(props: AssistantProps) {
  const { item } = props;
  const { write } = useAccess();
  const answer = useAnswerHtml(item.text, item.running);
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
      ${item.guardrails.map(
        (record, index) => html`<${GuardrailNote} key=${`guardrail-${index}`} record=${record} />`,
      )}
      ${waiting ? html`<p class="muted thinking">${t('thinking')}</p>` : null}
      ${item.text ? html`<div class="answer markdown" dangerouslySetInnerHTML=${{ __html: answer }}></div>` : null}
      ${
        item.sources?.length
          ? html`<${SourcesView}
              sources=${item.sources}
              sessionId=${props.sessionId}
              runsVersion=${props.runsVersion}
            />`
          : null
      }
      ${item.evaluation ? html`<${EvaluationView} evaluation=${item.evaluation} />` : null}
      ${item.errors.map((error, index) => html`<${ErrorView} key=${index} error=${error} />`)}
      <footer class="message-meta">
        ${item.status === 'cancelled' ? html`<span class="badge">${t('cancelled')}</span>` : null}
        ${item.status === 'rejected' ? html`<span class="badge warn">${t('rejected')}</span>` : null}
        ${item.status === 'blocked' ? html`<span class="badge warn">${t('blockedTurn')}</span>` : null}
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
          item.running || !item.text || item.unsent || !write
            ? null
            : html`<${FeedbackButtons} sessionId=${props.sessionId} latest=${props.latest} />`
        }
        ${
          props.onRegenerate && !item.running && !item.unsent
            ? html`<button
                type="button"
                class="link-button"
                data-testid="regenerate"
                onClick=${props.onRegenerate}
              >
                ↻ ${t('regenerate')}
              </button>`
            : null
        }
        ${
          item.running || item.unsent
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
