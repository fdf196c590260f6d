import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type ChatCompletionRequest,
  type FakeOpenAiServer,
  type ServeProcess,
  startFakeOpenAiServer,
  startServeProcess,
} from '../src/testing/internal/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON bodies
type Json = any;

const root = mkdtempSync(join(tmpdir(), 'yeoul-runs-places-'));
after(() => rmSync(root, { recursive: true, force: true }));

const lastMessage = (request: ChatCompletionRequest) =>
  String(request.body.messages.at(-1)?.content ?? '');

// With one place for background runs (YEOUL_BACKGROUND_RUNS=1), a second background run waits
// `queued` while the first goes, whatever its session; it can be cancelled or superseded there.
describe('background runs beyond YEOUL_BACKGROUND_RUNS wait queued (a real server process)', () => {
  let model: FakeOpenAiServer;
  let server: ServeProcess;
  before(async () => {
    model = await startFakeOpenAiServer(
      (request) => ({ kind: 'text', text: `answer: ${lastMessage(request)}` }),
      { delayMs: (request) => (lastMessage(request).includes('slow') ? 1_500 : 50) },
    );
    server = await startServeProcess(
      mkdtempSync(join(root, 'data-')),
      {
        YEOUL_MODEL: 'compat:scripted',
        YEOUL_COMPAT_BASE_URL: model.baseUrl,
        YEOUL_BACKGROUND_RUNS: '1',
      },
      ['--no-sample'],
    );
  });
  after(async () => {
    await server?.stop();
    await model?.close();
  });

  const call = async (path: string, body?: unknown, method = 'POST') => {
    const response = await fetch(server.url + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Json) : undefined };
  };
  const run = async (runId: string, wait = 0) =>
    (await call(`/api/runs/${runId}${wait > 0 ? `?wait=${wait}` : ''}`, undefined, 'GET')).body;
  const asked = (text: string) =>
    model.requests.filter((request) => lastMessage(request) === text).length;

  it('starts the second run only when the first has ended, each answered once', async () => {
    const first = await call('/api/runs', { message: 'slow one', sessionId: 'places-a' });
    const second = await call('/api/runs', { message: 'quick two', sessionId: 'places-b' });
    assert.equal(first.status, 202);
    assert.equal(second.status, 202);
    assert.equal(second.body.status, 'queued');
    // While the first waits on its model call, the second has not asked the model.
    assert.equal((await run(second.body.runId)).status, 'queued');
    assert.equal(asked('quick two'), 0);
    const firstEnded = await run(first.body.runId, 30);
    const secondEnded = await run(second.body.runId, 30);
    assert.equal(firstEnded.status, 'done');
    assert.equal(secondEnded.status, 'done');
    assert.ok(Date.parse(secondEnded.startedAt) >= Date.parse(firstEnded.endedAt));
    assert.equal(secondEnded.result.response, 'answer: quick two');
    assert.equal(asked('quick two'), 1);
  });

  it('cancels a run waiting for its place: it never starts, and the next one does', async () => {
    const first = await call('/api/runs', { message: 'slow three', sessionId: 'places-c' });
    const waiting = await call('/api/runs', { message: 'never asked', sessionId: 'places-d' });
    const third = await call('/api/runs', { message: 'quick four', sessionId: 'places-e' });
    const cancelled = await call(`/api/runs/${waiting.body.runId}/cancel`);
    assert.equal(cancelled.status, 202, JSON.stringify(cancelled.body));
    const record = await run(waiting.body.runId);
    assert.equal(record.status, 'cancelled');
    assert.deepEqual(record.cancelReason, { type: 'request' });
    assert.equal((await run(first.body.runId, 30)).status, 'done');
    assert.equal((await run(third.body.runId, 30)).status, 'done');
    assert.equal(asked('never asked'), 0);
  });

  it('lets a newer message with onBusy "interrupt" supersede a run waiting for its place, at once', async () => {
    const first = await call('/api/runs', { message: 'slow five', sessionId: 'places-f' });
    const waiting = await call('/api/runs', { message: 'superseded six', sessionId: 'places-g' });
    // An invoke is not a background run: it takes the session at once, the old run cancelled.
    const newer = await call('/api/agent/invoke', {
      message: 'newer seven',
      sessionId: 'places-g',
      options: { onBusy: 'interrupt' },
    });
    assert.equal(newer.status, 200, JSON.stringify(newer.body));
    assert.equal(newer.body.response, 'answer: newer seven');
    const record = await run(waiting.body.runId);
    assert.equal(record.status, 'cancelled');
    assert.equal(record.cancelReason.type, 'superseded');
    assert.equal(record.cancelReason.runId, newer.body.runId);
    assert.equal(asked('superseded six'), 0);
    assert.equal((await run(first.body.runId, 30)).status, 'done');
  });
});
