import type { GuardrailRecord } from '../api/types.ts';
import { html } from '../html.ts';
import { t } from '../i18n.ts';

const actionTexts = {
  block: 'guardrailBlock',
  redact: 'guardrailRedact',
  warn: 'guardrailWarn',
} as const;

/**
 * What a guardrail did, in words: its name, what it acted on and the reason it gave
 * ("Guardrail “pii” blocked your message: card"). The reason is the server's text, shown as
 * text only.
 */
export function guardrailText(record: GuardrailRecord): string {
  const subject =
    record.stage === 'input'
      ? t('guardrailInput')
      : record.stage === 'output'
        ? t('guardrailOutput')
        : record.tool
          ? t('guardrailTool', { tool: record.tool })
          : t('guardrailTools');
  return t(actionTexts[record.action] ?? 'guardrailWarn', {
    name: record.name,
    subject,
    reason: record.reason,
  });
}

/** One guardrail that acted in a turn, with its name, stage and action as hooks. */
export function GuardrailNote(props: { record: GuardrailRecord }) {
  const { record } = props;
  return html`<p
    class=${`guardrail ${record.action}`}
    data-testid="guardrail"
    data-guardrail=${record.name}
    data-stage=${record.stage}
    data-action=${record.action}
  >
    <span class="guardrail-icon" aria-hidden="true">${record.action === 'block' ? '⛔' : '⚠'}</span>
    ${guardrailText(record)}
  </p>`;
}
