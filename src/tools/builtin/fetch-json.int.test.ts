import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { after, before, describe, it } from 'node:test';
import {
  type FakeHttpServer,
  startFakeHttpServer,
  waitUntil,
} from '../../testing/internal/index.ts';
import { createToolEnvironment } from '../environment.ts';
import { endpointUrl, fetchJson } from './fetch-json.ts';

const env = createToolEnvironment({ dataDir: tmpdir() });
const neverAborted = new AbortController().signal;
const secret = 'sk-secret-1234';

describe('fetchJson', () => {
  let fake: FakeHttpServer;
  before(async () => {
    fake = await startFakeHttpServer(() => ({ kind: 'json', body: { ok: true, word: '여울' } }));
  });
  after(() => fake.close());

  const request = (fields: Partial<Parameters<typeof fetchJson>[0]> = {}) =>
    fetchJson(
      { service: 'Fake', url: new URL(`${fake.url}/x`), secrets: [secret], ...fields },
      { signal: neverAborted, env },
    );
  const failsWith = async (
    pattern: RegExp,
    fields: Partial<Parameters<typeof fetchJson>[0]> = {},
  ) => {
    const error = await request(fields).then(
      () => assert.fail('expected a failure'),
      (thrown: unknown) => thrown as Error,
    );
    assert.match(error.message, pattern);
    assert.ok(!error.message.includes(secret), error.message);
    return error;
  };

  it('returns the parsed JSON of a 2xx answer and asks for JSON', async () => {
    fake.failWith(undefined);
    assert.deepEqual(await request(), { ok: true, word: '여울' });
    assert.equal(fake.requests.at(-1)?.headers.accept, 'application/json');
  });

  it('sends a JSON body with its content type on POST', async () => {
    fake.failWith(undefined);
    await request({ method: 'POST', body: { query: '서울' } });
    const received = fake.requests.at(-1);
    assert.equal(received?.method, 'POST');
    assert.equal(received?.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(received?.body ?? ''), { query: '서울' });
  });

  it('says a 429 means rate limiting, with the status, the detail and what to do', async () => {
    fake.failWith({ kind: 'json', status: 429, body: { message: 'Too many requests' } });
    await failsWith(/^Fake is rate limiting requests \(HTTP 429\): "Too many requests"; wait/);
  });

  it('names an HTML error page instead of quoting it', async () => {
    const page = '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>';
    fake.failWith({ kind: 'text', status: 502, body: page, contentType: 'text/html' });
    await failsWith(
      /^Fake is having problems \(HTTP 502\): "an HTML error page"; try again later$/,
    );
  });

  it('refuses an HTML page sent with status 200', async () => {
    fake.failWith({ kind: 'text', body: '<html>captive portal</html>', contentType: 'text/html' });
    await failsWith(/sent a web page instead of JSON \(HTTP 200\)/);
  });

  it('reports malformed JSON', async () => {
    fake.failWith({ kind: 'text', body: '{"results": [', contentType: 'application/json' });
    await failsWith(/sent malformed JSON \(HTTP 200\)/);
  });

  it('reports an empty body', async () => {
    fake.failWith({ kind: 'text', body: '', contentType: 'application/json' });
    await failsWith(/sent an empty answer/);
  });

  it('reports a body cut off by a dropped connection', async () => {
    fake.failWith({ kind: 'truncated', body: '{"results": [{"name": "Seo' });
    await failsWith(/closed the connection before its answer was complete \(HTTP 200\)/);
  });

  it('stops reading a body larger than the limit', async () => {
    fake.failWith({ kind: 'json', body: { text: 'x'.repeat(5000) } });
    await failsWith(/sent an answer larger than 1 KiB/, { maxBytes: 1024 });
  });

  it('says when the service cannot be reached', async () => {
    const closed = await startFakeHttpServer(() => ({ kind: 'hang' }));
    await closed.close();
    await failsWith(/^Fake could not be reached \(connection refused\)/, {
      url: new URL(`${closed.url}/?key=${secret}`),
    });
  });

  it('strips secrets the service echoes back, plain or URL-encoded', async () => {
    const body = { message: `bad key ${secret} / ${encodeURIComponent(`${secret}/x`)}` };
    fake.failWith({ kind: 'json', status: 401, body });
    const error = await failsWith(/refused the configured API key \(HTTP 401\)/, {
      secrets: [secret, `${secret}/x`],
    });
    assert.match(error.message, /\[redacted\]/);
  });

  it('lets the caller explain a status in its own words', async () => {
    fake.failWith({ kind: 'json', status: 404, body: { cod: '404', message: 'city not found' } });
    await failsWith(/^no such city$/, { explainStatus: () => new Error('no such city') });
  });

  it('rejects with the abort reason when the signal fires, and closes the connection', async () => {
    fake.failWith({ kind: 'hang' });
    const controller = new AbortController();
    const before = fake.requests.length;
    const pending = fetchJson(
      { service: 'Fake', url: new URL(`${fake.url}/hang`) },
      { signal: controller.signal, env },
    );
    await waitUntil(() => fake.requests.length > before, 'the request reached the service');
    controller.abort(new Error('stop'));
    await assert.rejects(pending, /stop/);
    assert.deepEqual(await fake.requests.at(-1)?.closed, { complete: false });
  });
});

describe('endpointUrl', () => {
  it('adds the parameters to the configured URL', () => {
    const url = endpointUrl('Fake', 'http://127.0.0.1:1/v1/search?format=json', { name: '서울' });
    assert.equal(url.searchParams.get('name'), '서울');
    assert.equal(url.searchParams.get('format'), 'json');
  });

  it('says the configuration is broken when the endpoint is not a URL', () => {
    assert.throws(() => endpointUrl('Fake', 'not a url', {}), /Fake has no valid endpoint URL/);
  });
});
