import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ProgressParams, progressReporter } from './progress-reporter.ts';

describe('MCP progress from run events', () => {
  it('reports steps and tool calls at once and batches the text, with increasing progress', async () => {
    const sent: ProgressParams[] = [];
    const reporter = progressReporter('token-1', async (params) => {
      sent.push(params);
    });
    reporter.onEvent('step', { node: 'agent', phase: 'start' });
    reporter.onEvent('step', { node: 'agent', phase: 'end' });
    reporter.onEvent('tool-call', { name: 'calculator' });
    reporter.onEvent('tool-result', { name: 'calculator', error: true });
    reporter.onEvent('token', { text: '56,088' });
    reporter.onEvent('token', { text: '입니다.' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    reporter.stop();
    assert.deepEqual(
      sent.map((params) => [params.progress, params.message]),
      [
        [1, 'step: agent'],
        [2, 'calling calculator'],
        [3, 'calculator failed'],
        [4, 'writing: 56,088입니다.'],
      ],
    );
    assert.ok(sent.every((params) => params.progressToken === 'token-1'));
  });

  it('sends nothing without a progress token, and nothing after stop', async () => {
    const sent: ProgressParams[] = [];
    const silent = progressReporter(undefined, async (params) => {
      sent.push(params);
    });
    silent.onEvent('step', { node: 'agent', phase: 'start' });
    const stopped = progressReporter(7, async (params) => {
      sent.push(params);
    });
    stopped.onEvent('token', { text: 'late' });
    stopped.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(sent, []);
  });
});
