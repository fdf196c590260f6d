import { itemScore } from './summarize-run.ts';
import type { EvalRun, EvalRunItem } from './types.ts';

/** How one item changed between two runs. */
export interface ItemChange {
  id: string;
  change: 'regressed' | 'fixed' | 'still-failing' | 'same' | 'score-changed' | 'added' | 'removed';
  before?: { passed: boolean; score: number };
  after?: { passed: boolean; score: number };
  /** Scorers whose verdict or score differs, with both sides. */
  scorers: Array<{
    scorer: string;
    before?: number;
    after?: number;
    passedBefore?: boolean;
    passedAfter?: boolean;
    reason?: string;
  }>;
}

/** Two runs compared: per item, what changed; regressions are items passed in A, failed in B. */
export interface RunComparison {
  a: Pick<EvalRun, 'id' | 'name' | 'summary'>;
  b: Pick<EvalRun, 'id' | 'name' | 'summary'>;
  items: ItemChange[];
  regressions: ItemChange[];
}

/**
 * Compares run B against run A item by item (items matched by id): regressions (passed in
 * A, failed in B), fixes, scores that moved, and items only one side has.
 */
export function compareRuns(a: EvalRun, b: EvalRun): RunComparison {
  const before = new Map(a.items.map((item) => [item.id, item]));
  const after = new Map(b.items.map((item) => [item.id, item]));
  const ids = [...before.keys(), ...[...after.keys()].filter((id) => !before.has(id))];
  const items = ids.map((id) => changeOf(id, before.get(id), after.get(id)));
  const side = (run: EvalRun) => ({ id: run.id, name: run.name, summary: run.summary });
  return {
    a: side(a),
    b: side(b),
    items,
    regressions: items.filter((item) => item.change === 'regressed'),
  };
}

function changeOf(id: string, a: EvalRunItem | undefined, b: EvalRunItem | undefined): ItemChange {
  const view = (item: EvalRunItem) => ({
    passed: item.passed,
    score: round(itemScore(item.scores)),
  });
  if (a === undefined) return { id, change: 'added', after: view(b as EvalRunItem), scorers: [] };
  if (b === undefined) return { id, change: 'removed', before: view(a), scorers: [] };
  const names = [...new Set([...a.scores, ...b.scores].map((score) => score.scorer))];
  const scorers = names.flatMap((scorer) => {
    const first = a.scores.find((score) => score.scorer === scorer);
    const second = b.scores.find((score) => score.scorer === scorer);
    if (first && second && first.score === second.score && first.passed === second.passed)
      return [];
    return [
      {
        scorer,
        ...(first ? { before: first.score, passedBefore: first.passed } : {}),
        ...(second ? { after: second.score, passedAfter: second.passed } : {}),
        ...(second && !second.passed ? { reason: second.reason } : {}),
      },
    ];
  });
  const change: ItemChange['change'] =
    a.passed && !b.passed
      ? 'regressed'
      : !a.passed && b.passed
        ? 'fixed'
        : !a.passed && !b.passed
          ? 'still-failing'
          : scorers.length > 0
            ? 'score-changed'
            : 'same';
  return { id, change, before: view(a), after: view(b), scorers };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** A comparison as text: one line per item that changed, then the regressions. */
export function formatComparison(comparison: RunComparison): string {
  const score = (value?: number) => (value === undefined ? '–' : String(value));
  const lines = [
    `A: run ${comparison.a.id} "${comparison.a.name}" mean ${comparison.a.summary.meanScore}, ${comparison.a.summary.passed}/${comparison.a.summary.items} passed`,
    `B: run ${comparison.b.id} "${comparison.b.name}" mean ${comparison.b.summary.meanScore}, ${comparison.b.summary.passed}/${comparison.b.summary.items} passed`,
    '',
  ];
  for (const item of comparison.items) {
    if (item.change === 'same') continue;
    const scorers = item.scorers
      .map(
        (entry) =>
          `${entry.scorer} ${score(entry.before)} → ${score(entry.after)}${entry.reason ? ` (${entry.reason.replace(/\s+/g, ' ').slice(0, 120)})` : ''}`,
      )
      .join('; ');
    lines.push(
      `${item.change.padEnd(13)} ${item.id}: ${score(item.before?.score)} → ${score(item.after?.score)}${scorers ? `  ${scorers}` : ''}`,
    );
  }
  const same = comparison.items.filter((item) => item.change === 'same').length;
  lines.push(`${same} item${same === 1 ? '' : 's'} unchanged`);
  lines.push(
    comparison.regressions.length === 0
      ? 'no regressions'
      : `${comparison.regressions.length} regression${comparison.regressions.length === 1 ? '' : 's'}: ${comparison.regressions.map((item) => item.id).join(', ')}`,
  );
  return `${lines.join('\n')}\n`;
}
