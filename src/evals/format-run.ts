import { itemScore } from './summarize-run.ts';
import type { EvalRun, EvalSummary } from './types.ts';

const number = (value: number) => String(Math.round(value * 1000) / 1000);

/** A line of text cut to `width` characters. */
function cut(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

/**
 * A run as a terminal table: one row per item (result, mean score, each scorer's score,
 * the first message), then the reasons of the failed scores under the table.
 */
export function formatRunTable(run: EvalRun): string {
  const rows = run.items.map((item) => [
    item.id,
    item.passed ? 'PASS' : 'FAIL',
    number(itemScore(item.scores)),
    item.scores.map((score) => `${score.scorer} ${number(score.score)}`).join(', '),
    cut(item.input.join(' / '), 48),
  ]);
  const header = ['item', 'result', 'score', 'scorers', 'input'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd();
  const failures = run.items.flatMap((item) =>
    item.scores
      .filter((score) => !score.passed)
      .map((score) => `  ✗ ${item.id} ${score.scorer}: ${cut(score.reason, 160)}`),
  );
  return [
    line(header),
    ...rows.map(line),
    ...(failures.length > 0 ? ['', 'failed:', ...failures] : []),
    '',
  ].join('\n');
}

/**
 * The run's one summary line: items passed and failed, the mean score and each scorer's,
 * and the run id to compare it later.
 */
export function summaryLine(
  run: Pick<EvalRun, 'id' | 'name'> & { summary: EvalSummary },
  seconds?: number,
): string {
  const { summary } = run;
  const byScorer = Object.entries(summary.byScorer)
    .map(([name, score]) => `${name} ${number(score)}`)
    .join(', ');
  const timing =
    seconds === undefined
      ? ''
      : ` in ${number(seconds)} s (${number(summary.items / Math.max(seconds, 0.001))} items/s)`;
  return `${summary.failed === 0 ? 'PASS' : 'FAIL'} ${summary.items} items: ${summary.passed} passed, ${summary.failed} failed; mean score ${number(summary.meanScore)}${byScorer ? ` (${byScorer})` : ''}${timing}; run ${run.id} "${run.name}"`;
}
