import { useEffect, useState } from 'preact/hooks';
import { toErrorInfo } from '../api/api-client.ts';
import type { ErrorInfo, Usage } from '../api/types.ts';
import type { AssistantItem } from '../chat/chat-items.ts';
import { sessionHistory } from '../chat/session-history.ts';
import {
  findTurn,
  groupTurns,
  guardrailsOf,
  type InspectorRow,
  inspectorRows,
  lines,
  superstepLines,
  turnUsage,
} from '../chat/turn-steps.ts';
import { html } from '../html.ts';
import { formatNumber, t } from '../i18n.ts';
import { ErrorView } from './error-view.ts';
import { guardrailText } from './guardrail-note.ts';
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

/**
 * A line of the inspector: one step, or the tasks of one super-step side by side (each
 * with `data-node`, so the nodes are listed in order either way).
 */
function stepLine(
  key: number,
  cells: Array<{ node: string | null; body: unknown }>,
  superstep?: number,
) {
  const [first] = cells;
  if (cells.length === 1 && first) {
    return html`<li key=${key} class=${`step${first.node ? '' : ' input'}`} data-node=${first.node ?? undefined}>
      ${first.body}
    </li>`;
  }
  return html`<li key=${key} class="step superstep" data-testid="superstep" data-superstep=${superstep}>
    <span class="step-name">${t('parallelTasks', { n: cells.length })}</span>
    <div class="superstep-tasks">
      ${cells.map(
        (
          cell,
          column,
        ) => html`<div key=${column} class="superstep-task" data-testid="superstep-task" data-node=${cell.node ?? undefined}>
          ${cell.body}
        </div>`,
      )}
    </div>
  </li>`;
}

/**
 * One stored step: its name, the time it took, its LLM calls and tokens, what each guardrail
 * that acted did (the `guardrail` step), and its update.
 */
function StepDetails(props: { row: InspectorRow }) {
  const { row } = props;
  const name = row.node ?? (row.kind === 'input' ? t('input') : row.kind);
  const guardrails = row.node === 'guardrail' ? guardrailsOf(row.update) : [];
  return html`
    <span class="step-name">${name}</span>
    <span class="step-time">+${formatNumber(row.durationMs)} ms</span>
    ${row.usage && row.usage.llmCalls > 0 ? html`<span class="step-usage">${usageText(row.usage)}</span>` : null}
    ${
      guardrails.length > 0
        ? html`<ul class="step-guardrails">
            ${guardrails.map(
              (record, index) =>
                html`<li key=${index} data-guardrail=${record.name}>${guardrailText(record)}</li>`,
            )}
          </ul>`
        : null
    }
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
 * One turn's run, step by step: each node in order with the update it made, the time it
 * took and its LLM calls and tokens, from the stored history; the live steps while it runs.
 * The tasks of one super-step (nodes that ran in parallel) share a line, side by side.
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

  const liveLines = lines(item.liveSteps, (step) => step.superstep ?? null);
  const liveRows = liveLines.map((line, index) => {
    // A step still open has run until the next line started (or runs still).
    const nextStart = liveLines[index + 1]?.[0]?.startedAt;
    return stepLine(
      index,
      line.map((step) => {
        const end = step.endedAt ?? nextStart;
        return {
          node: step.node,
          body: html`<span class="step-name">${step.node}</span>
            <span class="step-time">${end === undefined ? t('running') : `${formatNumber(end - step.startedAt)} ms`}</span>`,
        };
      }),
    );
  });
  const storedRows = superstepLines(rows ?? []).map((line, index) =>
    stepLine(
      index,
      line.map((row) => ({ node: row.node, body: html`<${StepDetails} row=${row} />` })),
      line[0]?.superstep,
    ),
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
