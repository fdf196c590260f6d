/** Separator between the summaries kept in the sliding window of conversation summaries. */
export const summarySeparator = '\n---SUMMARY_BREAK---\n';

/**
 * Adds a summary to the sliding window of the most recent `maxSummaries` summaries,
 * oldest first, joined by the separator; older summaries drop out.
 */
export function addSummaryToWindow(existing: string, summary: string, maxSummaries = 3): string {
  const summaries = existing.trim() === '' ? [] : existing.split(summarySeparator);
  summaries.push(summary.trim());
  return summaries.slice(-maxSummaries).join(summarySeparator);
}

/** Renders the window as numbered "[대화 기록 N]" blocks for the system prompt. */
export function formatSummaryForPrompt(summary: string): string {
  if (summary.trim() === '') return '';
  return summary
    .split(summarySeparator)
    .map((entry, index) => `[대화 기록 ${index + 1}]\n${entry.trim()}`)
    .join('\n\n');
}
