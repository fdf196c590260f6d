import { useState } from 'preact/hooks';
import type { Interrupt } from '../api/types.ts';
import type { Decision } from '../chat/chat-items.ts';
import { html } from '../html.ts';
import { t } from '../i18n.ts';
import { useAccess } from './access-context.ts';
import { formatArgs } from './tool-card.ts';

interface InterruptProps {
  interrupt: Interrupt;
  onDecide: (interrupt: Interrupt, approve: boolean, reason?: string) => void;
}

/**
 * A tool call waiting for a person: the tool, its arguments, Approve, or Deny with a reason
 * (disabled, saying the access is read-only, for credentials that may not write).
 */
export function InterruptCard(props: InterruptProps) {
  const { interrupt } = props;
  const { write } = useAccess();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const reasonId = `reason-${interrupt.id}`;
  const decide = (approve: boolean) => {
    if (busy || !write) return;
    setBusy(true);
    props.onDecide(interrupt, approve, approve ? undefined : reason.trim() || undefined);
  };
  return html`
    <section class="interrupt" data-testid="interrupt" aria-label=${t('approvalNeeded', { tool: interrupt.tool })}>
      <h3>
        ${t('approvalNeeded', { tool: '' })}<code>${interrupt.tool}</code>
      </h3>
      <pre class="tool-text">${formatArgs(interrupt.args)}</pre>
      <div class="interrupt-actions">
        <label class="visually-hidden" for=${reasonId}>${t('reason')}</label>
        <input
          id=${reasonId}
          type="text"
          class="reason"
          placeholder=${t('reason')}
          value=${reason}
          disabled=${!write}
          onInput=${(event: Event) => setReason((event.target as HTMLInputElement).value)}
        />
        <button type="button" class="primary" data-testid="approve" disabled=${busy || !write} title=${write ? undefined : t('readOnlyShort')} onClick=${() => decide(true)}>
          ${t('approve')}
        </button>
        <button type="button" class="danger" data-testid="deny" disabled=${busy || !write} title=${write ? undefined : t('readOnlyShort')} onClick=${() => decide(false)}>
          ${t('deny')}
        </button>
      </div>
    </section>
  `;
}

/** A decision already made, where its card was. */
export function DecisionNote(props: { decision: Decision }) {
  const { decision } = props;
  const text = t(decision.approve ? 'approved' : 'denied', { tool: decision.tool });
  return html`
    <p class=${`decision ${decision.approve ? 'ok' : 'denied'}`}>
      ${decision.approve ? '✓ ' : '✕ '}${text}${decision.reason ? ` — ${decision.reason}` : ''}
    </p>
  `;
}
