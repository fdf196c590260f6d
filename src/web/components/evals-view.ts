import { useEffect, useState } from 'preact/hooks';
import { api, toErrorInfo } from '../api/api-client.ts';
import type { ErrorInfo, EvalItem, EvalRun } from '../api/types.ts';
import { html } from '../html.ts';
import { formatNumber, locale, t } from '../i18n.ts';
import { ErrorView } from './error-view.ts';

const score = (value: number) => formatNumber(value, 2);

function useRun(id: string | null, version: number): EvalRun | null {
  const [run, setRun] = useState<EvalRun | null>(null);
  useEffect(() => {
    setRun(null);
    if (id === null) return;
    let live = true;
    api.evals
      .get(id)
      .then((body) => live && setRun(body))
      .catch(() => live && setRun(null));
    return () => {
      live = false;
    };
  }, [id, version]);
  return run;
}

/** One item of the opened run: each scorer's name and score (and B's beside A's), its session. */
function ItemRow(props: {
  item: EvalItem;
  other?: EvalItem | undefined;
  onOpenSession: (id: string) => void;
}) {
  const { item, other } = props;
  return html`<li class=${`eval-item ${item.passed ? 'pass' : 'fail'}`} data-testid="eval-item">
    <div class="eval-item-head">
      <span class=${`badge ${item.passed ? '' : 'warn'}`}>${item.passed ? t('passed') : t('failed')}</span>
      <strong>${item.id}</strong>
      <span class="muted">${item.input.join(' / ')}</span>
      <button type="button" class="link-button" data-testid="eval-item-session" onClick=${() => props.onOpenSession(item.sessionId)}>
        ${t('openEvalSession')}
      </button>
    </div>
    <ul class="eval-scores">
      ${item.scores.map((entry) => {
        const before = other?.scores.find((candidate) => candidate.scorer === entry.scorer);
        return html`<li key=${entry.scorer} class=${entry.passed ? 'pass' : 'fail'} title=${entry.reason} data-scorer=${entry.scorer}>
          <span class="eval-scorer">${entry.scorer}</span>
          <span class="eval-score">${score(entry.score)}</span>
          ${before && before.score !== entry.score ? html`<span class="muted">(${score(before.score)})</span>` : null}
          <span class="muted eval-reason">${entry.reason}</span>
        </li>`;
      })}
    </ul>
  </li>`;
}

function RunPanel(props: {
  run: EvalRun;
  other: EvalRun | null;
  onOpenSession: (id: string) => void;
}) {
  const { run, other } = props;
  return html`<section class="eval-run-panel" aria-label=${run.name}>
    <h3>${run.name} <span class="muted">${new Date(run.createdAt).toLocaleString(locale)}</span></h3>
    <p>${t('evalSummary', { passed: run.summary.passed, items: run.summary.items, mean: score(run.summary.meanScore) })}
      ${Object.entries(run.summary.byScorer).map(([name, value]) => html` · ${name} ${score(value)}`)}</p>
    ${run.error ? html`<p class="muted">${run.error}</p>` : null}
    <ul class="eval-items">
      ${(run.items ?? []).map(
        (item) => html`<${ItemRow}
          key=${item.id}
          item=${item}
          other=${other?.items?.find((candidate) => candidate.id === item.id)}
          onOpenSession=${props.onOpenSession}
        />`,
      )}
    </ul>
  </section>`;
}

/**
 * The Evals view: the owner's runs with their summaries; an opened run's items with each
 * scorer's score and reason, each linking to its session; a second run side by side.
 */
export function EvalsView(props: { version: number; onOpenSession: (sessionId: string) => void }) {
  const [runs, setRuns] = useState<EvalRun[] | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const [otherId, setOtherId] = useState<string | null>(null);
  const open = useRun(openId, props.version);
  const other = useRun(otherId, props.version);

  useEffect(() => {
    let live = true;
    api.evals
      .list()
      .then((body) => live && setRuns(body.runs ?? []))
      .catch((reason: unknown) => live && setError(toErrorInfo(reason)));
    return () => {
      live = false;
    };
  }, [props.version]);

  return html`
    <section class="evals-view" aria-labelledby="evals-title">
      <h2 id="evals-title">${t('evalRuns')}</h2>
      ${error ? html`<${ErrorView} error=${error} />` : null}
      ${runs === null && !error ? html`<p class="muted">${t('loading')}</p>` : null}
      ${runs?.length === 0 ? html`<p class="muted">${t('noEvalRuns')}</p>` : null}
      <ul class="eval-runs">
        ${(runs ?? []).map(
          (run) => html`<li key=${run.id}>
            <button
              type="button"
              class="eval-run"
              data-testid="eval-run"
              aria-pressed=${openId === run.id ? 'true' : 'false'}
              onClick=${() => setOpenId(run.id)}
            >
              <strong>${run.name}</strong>
              <span class="muted">${new Date(run.createdAt).toLocaleString(locale)} · ${run.graph}</span>
              <span>${
                run.status === 'running'
                  ? t('evalRunning')
                  : run.status === 'failed'
                    ? t('evalFailed')
                    : t('evalSummary', {
                        passed: run.summary.passed,
                        items: run.summary.items,
                        mean: score(run.summary.meanScore),
                      })
              }</span>
            </button>
          </li>`,
        )}
      </ul>
      ${
        open
          ? html`<label class="eval-compare">
              ${t('compareWith')}
              <select data-testid="eval-compare" onChange=${(event: Event) => setOtherId((event.target as HTMLSelectElement).value || null)}>
                <option value="">${t('noComparison')}</option>
                ${(runs ?? [])
                  .filter((run) => run.id !== open.id)
                  .map(
                    (run) =>
                      html`<option key=${run.id} value=${run.id}>${run.name} · ${new Date(run.createdAt).toLocaleString(locale)}</option>`,
                  )}
              </select>
            </label>
            <div class=${`eval-panels${other ? ' side-by-side' : ''}`}>
              <${RunPanel} run=${open} other=${other} onOpenSession=${props.onOpenSession} />
              ${other ? html`<${RunPanel} run=${other} other=${open} onOpenSession=${props.onOpenSession} />` : null}
            </div>`
          : null
      }
    </section>
  `;
}
