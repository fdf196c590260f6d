import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { t } from './i18n.ts';

describe('interface text (English, as Node has no browser language)', () => {
  it('says one and many with the right word', () => {
    assert.equal(t('passages', { n: 1 }), '1 passage');
    assert.equal(t('passages', { n: 3 }), '3 passages');
    assert.equal(
      t('usage', { calls: 1, input: '10', output: '5' }),
      '1 LLM call · 10 in / 5 out tokens',
    );
    assert.equal(t('parallelTasks', { n: 2 }), '2 tasks in parallel');
  });
});
