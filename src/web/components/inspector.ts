import { useEffect, useState } from 'preact/hooks';
import { toErrorInfo } from '../api/api-client.ts';
import type { ErrorInfo, Usage } from '../api/types.ts';
import type { AssistantItem } from '../chat/chat-items.ts';
import { sessionHistory } from '../chat/session-history.ts';
import {
  findTurn,
  groupTurns,
  type InspectorRow,
  inspectorRows,
  superstepLines,
  turnUsage,
} from '../chat/turn-steps.ts';
import { html } from '../html.ts';
import { formatNumber, t } from '../i18n.ts';
import { ErrorView } from './error-view.ts';
import { formatArgs } from './tool-card.ts';

interface InspectorProps {
  sessionId: string;
  /** The chat's runsVersion: the stored history is shared with the sources view per version. */
  runsVersion: number;
  item: AssistantItem;
  /** The turn's position counted from the last one (0 = the latest). */
  fromEnd: number;
  onClose: () => void;
}

const usageText = (usage: Usage) =>
  t('usage', {
    calls: usage.llmCalls,
    input: formatNumber(usage.inputTokens),
    output: formatNumber(usage.outputTokens),
  });

/** One stored step: its name, the time it took, its LLM calls and tokens, and its update. */
function StepDetails(props: { row: InspectorRow }) {
  const { row } = props;
  const name = row.node ?? (row.kind === 'input' ? t('input') : row.kind);
  return html`
    <span class="step-name">${name}</span>
    <span class="step-time">+${formatNumber(row.durationMs)} ms</span>
    ${row.usage && row.usage.llmCalls > 0 ? html`<span class="step-usage">${usageText(row.usage)}</span>` : null}
    ${
      row.update
        ? html`<details class="step-update">
            <summary>${t('update')}</summary>
            <pre class="tool-text" tabindex="0">${formatArgs(row.update).slice(0, 20_000)}</pre>
          </details>`
        : null
    }
  `;
}

/**
 * One turn's run, step by step (the parallel tasks of a super-step side by side): each node in order with the update it made, the time it
 * took and its LLM calls and tokens, from the stored history; the live steps while it runs.
 */
export function Inspector(props: InspectorProps) {
  const { item } = props;
  const [rows, setRows] = useState<InspectorRow[] | null>(null);
  const [usage, setUsage] = useState<Usage | undefined>(undefined);
  const [error, setError] = useState<ErrorInfo | null>(null);

  useEffect(() => {
    setRows(null);
    setError(null);
    if (item.running) return;
    let live = true;
    sessionHistory(props.sessionId, props.runsVersion)
      .then((steps) => {
        if (!live) return;
        const turn = findTurn(groupTurns(steps), {
          ...(item.userMessageId ? { userMessageId: item.userMessageId } : {}),
          userText: item.userText,
          fromEnd: props.fromEnd,
        });
        setRows(turn ? inspectorRows(turn) : []);
        setUsage(turn ? turnUsage(turn) : undefined);
      })
      .catch((reason: unknown) => live && setError(toErrorInfo(reason)));
    return () => {
      live = false;
    };
  }, [item.key, item.running, props.sessionId]);

  const liveRows = item.liveSteps.map((step, index) => {
    const next = item.liveSteps[index + 1];
    const end = step.endedAt ?? next?.startedAt;
    return html`<li key=${index} class="step" data-node=${step.node}>
      <span class="step-name">${step.node}</span>
      <span class="step-time">${end === undefined ? t('running') : `${formatNumber(end - step.startedAt)} ms`}</span>
    </li>`;
  });
  const storedRows = superstepLines(rows ?? []).map((line, index) =>
    line.length === 1
      ? html`<li key=${index} class=${`step${line[0]?.node ? '' : ' input'}`} data-node=${line[0]?.node ?? undefined}>
          <${StepDetails} row=${line[0]} />
        </li>`
      : html`<li key=${index} class="step superstep" data-testid="superstep" data-superstep=${line[0]?.superstep}>
          <span class="step-name">${t('parallelTasks', { n: line.length })}</span>
          <div class="superstep-tasks">
            ${line.map(
              (
                row,
              ) => html`<div key=${row.node} class="superstep-task" data-testid="superstep-task" data-node=${row.node}>
                <${StepDetails} row=${row} />
              </div>`,
            )}
          </div>
        </li>`,
  );
  const showLive =
    item.running ||
    (rows === null && error !== null) ||
    (rows?.length === 0 && liveRows.length > 0);
  const total = usage ?? item.usage;

  return html`
    <aside class="inspector" data-testid="inspector" aria-labelledby="inspector-title">
      <header class="inspector-head">
        <h2 id="inspector-title">${t('inspector')}</h2>
        <button type="button" class="icon-button" aria-label=${t('close')} title=${t('close')} onClick=${props.onClose}>
          <span aria-hidden="true">×</span>
        </button>
      </header>
      <p class="muted inspector-turn">${item.userText}</p>
      ${total ? html`<p class="inspector-total">${usageText(total)}</p>` : null}
      ${showLive ? html`<p class="muted">${t('liveSteps')}</p>` : null}
      ${!showLive && rows === null && !error ? html`<p class="muted">${t('loading')}</p>` : null}
      ${!showLive && rows?.length === 0 ? html`<p class="muted">${t('noSteps')}</p>` : null}
      <ol class="steps">${showLive ? liveRows : storedRows}</ol>
      ${error ? html`<${ErrorView} error=${error} />` : null}
    </aside>
  `;
}
