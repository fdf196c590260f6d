import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serializeRequest } from './serialize-request.ts';

describe('serializeRequest', () => {
  it('keeps the method, path and harmless parameters, and hides credentials a URL carries', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJl';
    const logged = serializeRequest({
      method: 'GET',
      url: `/api/memory?prefix=team&access_token=abc&API_KEY=k1&q=${jwt}`,
      host: 'localhost',
      ip: '127.0.0.1',
    });
    assert.deepEqual(logged, {
      method: 'GET',
      url: '/api/memory?prefix=team&access_token=[redacted]&API_KEY=[redacted]&q=[redacted]',
      host: 'localhost',
      remoteAddress: '127.0.0.1',
      remotePort: undefined,
    });
    assert.equal(serializeRequest({ method: 'GET', url: '/healthz' }).url, '/healthz');
  });
});
