import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evalOutcome } from '../../testing/internal/index.ts';
import { latencyScorer, tokensScorer } from './limit-scorers.ts';
import { sourcesScorer } from './sources-scorer.ts';
import { toolsScorer } from './tools-scorer.ts';

const tools = {};
const calls = (...names: string[]) => names.map((name) => ({ name, result: 'ok' }));

describe('tools (trajectory)', () => {
  it('passes when the expected tools were called in order, other calls between', async () => {
    const outcome = evalOutcome({
      expectedTools: ['search_knowledge', 'calculator'],
      toolCalls: calls('get_current_datetime', 'search_knowledge', 'calculator'),
    });
    const result = await toolsScorer.score(outcome, tools);
    assert.equal(result.passed, true);
    assert.equal(result.score, 1);
  });

  it('fails on a missing tool, naming it', async () => {
    const outcome = evalOutcome({
      expectedTools: ['search_knowledge', 'calculator'],
      toolCalls: calls('search_knowledge'),
    });
    const result = await toolsScorer.score(outcome, tools);
    assert.equal(result.passed, false);
    assert.equal(result.score, 0.5);
    assert.match(result.reason, /missing calculator after search_knowledge/);
  });

  it('fails when the tools were called in the wrong order', async () => {
    const outcome = evalOutcome({
      expectedTools: ['search_knowledge', 'calculator'],
      toolCalls: calls('calculator', 'search_knowledge'),
    });
    assert.equal((await toolsScorer.score(outcome, tools)).passed, false);
  });
});

describe('sources', () => {
  it('passes when every expected document is cited', async () => {
    const outcome = evalOutcome({
      expectedSources: ['vacation-policy'],
      sources: ['team-budget', 'vacation-policy'],
    });
    assert.equal((await sourcesScorer.score(outcome, tools)).passed, true);
  });

  it('fails on a missing source, naming it', async () => {
    const outcome = evalOutcome({
      expectedSources: ['vacation-policy', 'team-budget'],
      sources: ['vacation-policy'],
    });
    const result = await sourcesScorer.score(outcome, tools);
    assert.equal(result.passed, false);
    assert.equal(result.score, 0.5);
    assert.match(result.reason, /missing source team-budget/);
  });
});

describe('latency and tokens', () => {
  it('report the measure and fail only above the item’s limit', async () => {
    const quick = evalOutcome({ latencyMs: 120, maxLatencyMs: 500 });
    assert.deepEqual(await latencyScorer.score(quick, tools), {
      score: 1,
      passed: true,
      reason: '120 ms (≤ 500 ms)',
    });
    const slow = evalOutcome({ latencyMs: 900, maxLatencyMs: 500 });
    assert.equal((await latencyScorer.score(slow, tools)).passed, false);
    const unlimited = evalOutcome({ latencyMs: 90_000 });
    assert.equal((await latencyScorer.score(unlimited, tools)).passed, true);
    const heavy = evalOutcome({ tokens: { input: 900, output: 200 }, maxTokens: 1000 });
    const result = await tokensScorer.score(heavy, tools);
    assert.equal(result.passed, false);
    assert.match(result.reason, /^1100 tokens \(900 in, 200 out/);
  });
});
