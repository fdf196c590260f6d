import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type FakeTavily, startFakeTavily } from '../../testing/internal/index.ts';
import { createToolEnvironment } from '../environment.ts';
import { ToolRegistry } from '../registry.ts';
import { ToolExecutor } from '../tool-executor.ts';
import type { ToolDefinition, ToolEnvironment, ToolResult } from '../types.ts';
import { webSearchTool } from './web-search.ts';

const tavilyKey = 'tvly-dev-0123456789abcdefghij';

async function call<Input>(tool: ToolDefinition<Input>, env: ToolEnvironment, args: unknown) {
  const executor = new ToolExecutor(new ToolRegistry().register(tool), { env });
  const result: ToolResult = await executor.execute({ id: 'call-1', name: tool.name, args });
  assert.ok(!result.content.includes(tavilyKey), 'the API key leaked into a result');
  return result;
}

describe('web_search', () => {
  let tavily: FakeTavily;
  const envWith = (key: string | undefined) =>
    createToolEnvironment({
      dataDir: tmpdir(),
      endpoints: { tavily: tavily.searchUrl },
      keys: key === undefined ? {} : { tavily: key },
    });
  before(async () => {
    tavily = await startFakeTavily({ apiKey: tavilyKey });
  });
  after(() => tavily.close());
  beforeEach(() => {
    tavily.failWith(undefined);
    tavily.requests.length = 0;
  });

  it('is not offered, and not run, without a key', async () => {
    const env = envWith(undefined);
    const registry = new ToolRegistry().register(webSearchTool);
    assert.deepEqual(registry.describe(env), []);
    const result = await call(webSearchTool, env, { query: 'Node.js' });
    assert.equal(result.content, 'Error: unknown tool "web_search"; available tools: none');
    assert.equal(tavily.requests.length, 0);
  });

  it('posts the query with the key as a bearer token and returns answer and results', async () => {
    const query = 'Node.js release schedule';
    const result = await call(webSearchTool, envWith(tavilyKey), { query });
    assert.equal(result.isError, false, result.content);
    const request = tavily.requests[0];
    assert.equal(request?.method, 'POST');
    assert.equal(request?.headers.authorization, `Bearer ${tavilyKey}`);
    assert.deepEqual(JSON.parse(request?.body ?? ''), {
      query,
      max_results: 5,
      search_depth: 'basic',
      include_answer: true,
    });
    const output = JSON.parse(result.content);
    assert.equal(output.answer, 'Even-numbered Node.js releases become LTS in October.');
    assert.deepEqual(
      output.results.map((entry: { url: string; score: number }) => [entry.url, entry.score]),
      [
        ['https://github.com/nodejs/release', 0.9],
        ['https://nodejs.org/en/blog/release/v24.0.0', 0.6],
      ],
    );
  });

  it('searches in Korean and honours the limit', async () => {
    const result = await call(webSearchTool, envWith(tavilyKey), { query: '서울 벚꽃', limit: 1 });
    assert.equal(JSON.parse(tavily.requests[0]?.body ?? '').max_results, 1);
    const output = JSON.parse(result.content);
    assert.equal(output.results.length, 1);
    assert.equal(output.results[0].title, '서울 벚꽃 개화 시기');
  });

  it('answers "no results" as a normal result', async () => {
    const result = await call(webSearchTool, envWith(tavilyKey), { query: 'xyzzy' });
    assert.equal(result.isError, false);
    assert.equal(result.content, 'No web results for "xyzzy".');
  });

  it('says a wrong key was refused, without showing either key', async () => {
    const result = await call(webSearchTool, envWith('tvly-wrong-key-99'), { query: 'Node.js' });
    assert.match(result.content, /^Error: Tavily refused the configured API key \(HTTP 401\)/);
    assert.match(result.content, /TAVILY_API_KEY/);
    assert.ok(!result.content.includes('tvly-wrong-key-99'));
  });

  it('reports rate limiting and an exhausted plan', async () => {
    const env = envWith(tavilyKey);
    tavily.failWith({
      kind: 'json',
      status: 429,
      body: { detail: { error: 'Rate limit exceeded' } },
    });
    assert.match(
      (await call(webSearchTool, env, { query: 'Node.js' })).content,
      /^Error: Tavily is rate limiting requests \(HTTP 429\): "Rate limit exceeded"/,
    );
    tavily.failWith({
      kind: 'json',
      status: 432,
      body: { detail: { error: 'Plan limit exceeded' } },
    });
    assert.match(
      (await call(webSearchTool, env, { query: 'Node.js' })).content,
      /^Error: Tavily usage limit reached \(HTTP 432\)/,
    );
  });

  it('reports an HTML gateway page and malformed JSON', async () => {
    const env = envWith(tavilyKey);
    tavily.failWith({
      kind: 'text',
      status: 502,
      body: '<html>Bad Gateway</html>',
      contentType: 'text/html',
    });
    assert.match(
      (await call(webSearchTool, env, { query: 'Node.js' })).content,
      /^Error: Tavily is having problems \(HTTP 502\)/,
    );
    tavily.failWith({ kind: 'truncated', body: '{"results":[{"title":"No' });
    assert.match(
      (await call(webSearchTool, env, { query: 'Node.js' })).content,
      /^Error: Tavily closed the connection before its answer was complete/,
    );
  });

  it('caps long snippets and strips an echoed key', async () => {
    const results = [
      { title: 'Long', url: 'https://x.test/1', content: 'word '.repeat(3000), score: 0.5 },
      { title: 'Echo', url: 'https://x.test/2', content: `key=${tavilyKey}`, score: 0.4 },
    ];
    tavily.failWith({ kind: 'json', body: { query: 'q', answer: null, results } });
    const result = await call(webSearchTool, envWith(tavilyKey), { query: 'q' });
    const output = JSON.parse(result.content);
    assert.equal(output.results[0].content.length, 501);
    assert.equal(output.results[1].content, 'key=[redacted]');
    assert.ok(result.content.length < 4000);
  });

  it('keeps the output whole JSON under the size limit by leaving results out', async () => {
    const results = Array.from({ length: 5 }, (_, rank) => ({
      title: `제목 ${rank} ${'t'.repeat(300)}`,
      url: `https://example.kr/${'%ED%95%9C'.repeat(40)}/${rank}`,
      content: '내용 '.repeat(400),
      score: 0.9 - rank / 10,
    }));
    const body = { query: 'q', answer: '답 '.repeat(600), results };
    tavily.failWith({ kind: 'json', body });
    const result = await call(webSearchTool, envWith(tavilyKey), { query: 'q' });
    assert.ok(result.content.length <= 4000, String(result.content.length));
    const output = JSON.parse(result.content);
    assert.ok(output.results.length >= 1 && output.results.length < 5);
    assert.match(output.omitted, /^\d more results left out to fit the size limit$/);
  });

  it('times out on a service that never answers, and aborts the request', async () => {
    tavily.failWith({ kind: 'hang' });
    const tool = { ...webSearchTool, timeoutMs: 1000 };
    const result = await call(tool, envWith(tavilyKey), { query: 'Node.js' });
    assert.equal(result.content, 'Error: web_search timed out after 1 s');
    assert.deepEqual(await tavily.requests[0]?.closed, { complete: false });
  });
});
