import type { EvalRun } from './types.ts';

/** Text made safe for an XML attribute or element. */
function escapeXml(text: string): string {
  return (
    text
      // Characters XML 1.0 does not allow at all.
      .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

/**
 * A run as JUnit XML, the report CI systems (GitLab, GitHub, Jenkins) show: one
 * `testsuite` for the run, one `testcase` per item, and a `failure` per failed item naming
 * each failed scorer and its reason.
 */
export function junitReport(run: EvalRun): string {
  const attributes = (values: Record<string, string | number>) =>
    Object.entries(values)
      .map(([key, value]) => `${key}="${escapeXml(String(value))}"`)
      .join(' ');
  const seconds = (milliseconds: number) => (milliseconds / 1000).toFixed(3);
  const total = run.items.reduce((sum, item) => sum + item.latencyMs, 0);
  const cases = run.items.map((item) => {
    const head = `    <testcase ${attributes({ classname: `yeoul.eval.${run.graph}`, name: item.id, time: seconds(item.latencyMs) })}`;
    const scores = item.scores
      .map((score) => `${score.scorer} ${score.score}: ${score.reason}`)
      .join('\n');
    const output = `      <system-out>${escapeXml(`session ${item.sessionId}\n${scores}\n\n${item.response}`)}</system-out>`;
    if (item.passed) return `${head}>\n${output}\n    </testcase>`;
    const failed = item.scores.filter((score) => !score.passed);
    const message = failed.map((score) => `${score.scorer}: ${score.reason}`).join('; ');
    return [
      `${head}>`,
      `      <failure ${attributes({ message, type: failed.map((score) => score.scorer).join(',') })}>${escapeXml(message)}</failure>`,
      output,
      '    </testcase>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites ${attributes({ name: `yeoul eval ${run.name}`, tests: run.items.length, failures: run.summary.failed, time: seconds(total) })}>`,
    `  <testsuite ${attributes({ name: run.name, tests: run.items.length, failures: run.summary.failed, errors: 0, skipped: 0, time: seconds(total), timestamp: run.createdAt })}>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
