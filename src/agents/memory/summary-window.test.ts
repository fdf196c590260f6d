import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addSummaryToWindow, formatSummaryForPrompt, summarySeparator } from './summary-window.ts';

describe('summary window', () => {
  it('keeps the three most recent summaries, oldest first, joined by the separator', () => {
    let window = '';
    for (const summary of ['요약1', '요약2', '요약3', '요약4'])
      window = addSummaryToWindow(window, summary);
    assert.equal(window, ['요약2', '요약3', '요약4'].join(summarySeparator));
    assert.equal(summarySeparator, '\n---SUMMARY_BREAK---\n');
  });

  it('takes the window size as a setting', () => {
    assert.equal(addSummaryToWindow(`a${summarySeparator}b`, 'c', 2), `b${summarySeparator}c`);
  });

  it('renders numbered [대화 기록 N] blocks', () => {
    assert.equal(
      formatSummaryForPrompt(`이름은 철수${summarySeparator}마감은 3월 15일`),
      '[대화 기록 1]\n이름은 철수\n\n[대화 기록 2]\n마감은 3월 15일',
    );
    assert.equal(formatSummaryForPrompt(''), '');
  });
});
