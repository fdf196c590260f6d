import { useState } from 'preact/hooks';
import type { Evaluation, Source } from '../api/types.ts';
import { sessionHistory } from '../chat/session-history.ts';
import { html } from '../html.ts';
import { formatNumber, t } from '../i18n.ts';

/** The passages the stored steps of a session retrieved, by chunk id. */
async function passagesOf(sessionId: string, runsVersion: number): Promise<Map<string, string>> {
  const steps = await sessionHistory(sessionId, runsVersion);
  const passages = new Map<string, string>();
  for (const step of steps) {
    const list = step.update?.passages;
    if (!Array.isArray(list)) continue;
    for (const passage of list as Array<{ chunkId?: string; text?: string }>)
      if (passage.chunkId && passage.text) passages.set(passage.chunkId, passage.text);
  }
  return passages;
}

/** The documents a RAG answer drew on; each opens to the passage, read from the stored steps. */
export function SourcesView(props: { sources: Source[]; sessionId: string; runsVersion: number }) {
  const [passages, setPassages] = useState<Map<string, string> | null>(null);
  const load = (event: Event) => {
    if (!(event.target as HTMLDetailsElement).open || passages) return;
    passagesOf(props.sessionId, props.runsVersion)
      .then(setPassages)
      .catch(() => setPassages(new Map()));
  };
  return html`
    <section class="sources" data-testid="sources" aria-label=${t('sources')}>
      <h3>${t('sources')}</h3>
      <ol>
        ${props.sources.map(
          (source) => html`<li key=${source.chunkId}>
            <details onToggle=${load}>
              <summary><span class="source-title">${source.title || source.documentId}</span></summary>
              <p class="passage">
                ${passages ? (passages.get(source.chunkId) ?? source.chunkId) : t('loading')}
              </p>
            </details>
          </li>`,
        )}
      </ol>
    </section>
  `;
}

/** The ops loop's judgement: verdict, score and each check. */
export function EvaluationView(props: { evaluation: Evaluation }) {
  const { evaluation } = props;
  const verdictClass =
    evaluation.verdict === 'pass' ? 'ok' : evaluation.verdict === 'block' ? 'bad' : 'warn';
  return html`
    <section class="evaluation" data-testid="evaluation" aria-label=${t('evaluation')}>
      <h3>
        ${t('evaluation')}:
        <span class=${`badge ${verdictClass}`}>${t('verdict')} ${evaluation.verdict}</span>
        <span class="muted">${t('score', { score: formatNumber(evaluation.score, 2) })}</span>
      </h3>
      <ul class="checks">
        ${(evaluation.checks ?? []).map(
          (check) => html`<li key=${check.name} class=${check.passed ? 'ok' : 'bad'}>
            <span aria-hidden="true">${check.passed ? '✓' : '✕'}</span>
            <strong>${check.name}</strong>
            <span>${formatNumber(check.score, 2)} · ${check.passed ? t('passed') : t('failed')}</span>
            ${check.feedback ? html`<span class="muted"> — ${check.feedback}</span>` : null}
          </li>`,
        )}
      </ul>
    </section>
  `;
}
