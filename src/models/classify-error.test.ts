import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { APICallError } from '@ai-sdk/provider';
import { StreamProviderError } from 'ai';
import { closedPortUrl } from '../testing/internal/index.ts';
import { classifyModelError } from './classify-error.ts';
import { ModelCallError } from './errors/model-call-error.ts';
import { readModelConfig } from './model-config.ts';
import { resolveModel } from './resolve-model.ts';

/** What fetch itself throws for a URL (no server is involved for a blocked port). */
async function fetchFailure(url: string): Promise<unknown> {
  try {
    await fetch(url, { method: 'POST', body: '{}' });
  } catch (error) {
    return error;
  }
  assert.fail(`fetch ${url} should have failed`);
}

describe('classifying model failures', () => {
  it('names a blocked port from the URL the SDK reports, and does not retry it', async () => {
    const url = 'http://127.0.0.1:6666/v1/chat/completions';
    const cause = await fetchFailure(url);
    const error = new APICallError({
      message: 'Cannot connect to API: fetch failed',
      url,
      requestBodyValues: {},
      cause,
      isRetryable: true,
    });
    const failure = classifyModelError(error, false);
    assert.equal(failure.reason, 'unreachable');
    assert.equal(failure.retryable, false);
    assert.match(failure.detail, /^port 6666 is blocked by fetch .*choose another port$/);
  });

  it('fails a model whose URL escaped the start-time check at once, as unreachable', async () => {
    // A configuration built in code (a library user, a test) skips readModelConfig's check.
    const config = readModelConfig({
      YEOUL_MODEL: 'compat:m',
      YEOUL_COMPAT_BASE_URL: 'http://127.0.0.1:8999/v1',
    });
    config.compat.baseUrl = 'http://127.0.0.1:6000/v1';
    const model = resolveModel(config, { retryBaseDelayMs: 1 });
    await assert.rejects(model.call({ messages: [{ role: 'user', content: 'hi' }] }), (error) => {
      assert.ok(error instanceof ModelCallError);
      assert.equal(error.code, 'model_unreachable');
      assert.equal(error.attempts, 1);
      assert.match(error.message, /port 6000 is blocked by fetch/);
      return true;
    });
  });

  it('still retries a refused connection on an ordinary port', async () => {
    const url = await closedPortUrl();
    const cause = await fetchFailure(url);
    const failure = classifyModelError(
      new APICallError({
        message: 'Cannot connect',
        url,
        requestBodyValues: {},
        cause,
      }),
      false,
    );
    assert.equal(failure.reason, 'unreachable');
    assert.equal(failure.retryable, true);
  });

  it('sorts errors sent inside a stream by their status, and retries what the provider calls passing', () => {
    const sorted = (statusCode: number, isRetryable: boolean, type: string) =>
      classifyModelError(
        new StreamProviderError({ message: 'stream failed', type, statusCode, isRetryable }),
        false,
      );
    assert.deepEqual(
      [
        sorted(429, true, 'throttlingException'),
        sorted(400, false, 'validationException'),
        sorted(424, true, 'modelStreamErrorException'),
        sorted(503, true, 'serviceUnavailableException'),
      ].map(({ reason, retryable, status }) => [reason, retryable, status]),
      [
        ['rate_limited', true, 429],
        ['bad_request', false, 400],
        ['unavailable', true, 424],
        ['unavailable', true, 503],
      ],
    );
    assert.match(
      sorted(400, false, 'validationException').detail,
      /^validationException: stream failed/,
    );
  });
});
