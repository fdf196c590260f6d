import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createRuntime, readServerConfig, startServer } from '../src/server/index.ts';
import { closedPortUrl, runYeoul, startPrometheus } from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-ops-seed-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('the ops workflow on a fresh data folder (offline model, bundled sample logs)', () => {
  it('answers "payment-service에서 500 에러 로그 보여줘" through the ops loop: the count, the newest events, PASS', async () => {
    const runtime = await createRuntime(
      readServerConfig({ YEOUL_DATA_DIR: mkdtempSync(join(root, 'data-')), PORT: '0' }),
    );
    const server = await startServer(runtime, { logger: false });
    try {
      const response = await fetch(`${server.url}/api/agent/invoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          message: 'payment-service에서 500 에러 로그 보여줘',
          options: { graph: 'ops' },
        }),
      });
      const payload = (await response.json()) as Json;
      assert.equal(payload.status, 'published');
      assert.deepEqual(payload.toolsUsed, ['query_logs']);
      assert.match(payload.response, /^조건에 맞는 로그 이벤트는 17건입니다/);
      assert.match(payload.response, /ORD-52116/, 'the newest event is quoted');
      assert.equal(payload.evaluation.verdict, 'pass');
      assert.ok(payload.evaluation.checks.find((check: Json) => check.name === 'grounding').passed);
      for (const question of [
        'order-service 에러 몇 건이야?',
        'card-gateway 로그에서 timeout 찾아줘',
        'How many errors did order-service log?',
      ]) {
        const other = (await (
          await fetch(`${server.url}/api/agent/invoke`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ message: question, options: { graph: 'ops' } }),
          })
        ).json()) as Json;
        assert.equal(other.status, 'published', question);
        assert.deepEqual(other.toolsUsed, ['query_logs'], question);
      }
    } finally {
      await server.close();
    }
  });

  it('prints the same answer with `yeoul ask --graph ops`', async () => {
    const run = await runYeoul([
      'ask',
      '--graph',
      'ops',
      'payment-service에서 500 에러 로그 보여줘',
      '--data',
      mkdtempSync(join(root, 'cli-')),
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^조건에 맞는 로그 이벤트는 17건입니다\. 가장 최근 3건:\n- /);
  });
});

describe('query_metrics against a real Prometheus scraping Yeoul', () => {
  it('answers PromQL over Yeoul’s own /metrics', async () => {
    const url = await closedPortUrl();
    const port = new URL(url).port;
    const prometheus = await startPrometheus({ targets: [`127.0.0.1:${port}`] });
    const runtime = await createRuntime(
      readServerConfig({
        YEOUL_DATA_DIR: mkdtempSync(join(root, 'metrics-')),
        PORT: port,
        YEOUL_SAMPLE_KNOWLEDGE: 'false',
        YEOUL_PROMETHEUS_URL: prometheus.url,
      }),
    );
    const server = await startServer(runtime, { logger: false });
    try {
      assert.ok(
        runtime.tools.registry
          .describe(runtime.toolEnvironment)
          .some((tool) => tool.name === 'query_metrics'),
      );
      await fetch(`${server.url}/api/agent/invoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: '123 * 456 계산해줘' }),
      });
      await prometheus.waitForScrapes(2, 30_000);
      const { ToolExecutor } = await import('../src/tools/index.ts');
      const executor = new ToolExecutor(runtime.tools.registry, { env: runtime.toolEnvironment });
      const result = await executor.execute({
        id: 'm1',
        name: 'query_metrics',
        args: { query: 'yeoul_runs_total' },
      });
      assert.equal(result.isError, false, result.content);
      assert.match(result.content, /yeoul_runs_total/);
      assert.match(result.content, /"status":"published"},"value":1/);
      const range = await executor.execute({
        id: 'm2',
        name: 'query_metrics',
        args: { query: 'up', start: '5m', step: '5s' },
      });
      assert.equal(range.isError, false, range.content);
      assert.match(range.content, /matrix/);
    } finally {
      await server.close();
      await prometheus.close();
    }
  });
});
