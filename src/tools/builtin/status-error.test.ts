import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serviceMessage, statusError } from './status-error.ts';

describe('statusError', () => {
  it('tells the model what each kind of status means and what to do', () => {
    const messages = [400, 401, 403, 404, 429, 503, 504, 418].map(
      (status) => statusError('Fake', status, '').message,
    );
    assert.deepEqual(messages, [
      'Fake rejected the request (HTTP 400); check the arguments',
      'Fake refused the configured API key (HTTP 401); the server administrator must fix the key; answer without this tool',
      'Fake refused access (HTTP 403); answer without this tool',
      'Fake has no such resource (HTTP 404); the endpoint may be misconfigured; answer without this tool',
      'Fake is rate limiting requests (HTTP 429); wait a little before trying again, or answer without it',
      'Fake is having problems (HTTP 503); try again later',
      'Fake timed out (HTTP 504); try again later',
      'Fake answered with an unexpected status (HTTP 418)',
    ]);
  });

  it('quotes the service detail', () => {
    assert.equal(
      statusError('Fake', 500, 'db down').message,
      'Fake is having problems (HTTP 500): "db down"; try again later',
    );
  });
});

describe('serviceMessage', () => {
  it('finds the explanation in the usual error bodies', () => {
    assert.equal(
      serviceMessage({ error: true, reason: 'Latitude out of range' }),
      'Latitude out of range',
    );
    assert.equal(serviceMessage({ error: { code: 'maxlag', info: 'lagged' } }), 'lagged');
    assert.equal(serviceMessage({ detail: { error: 'Unauthorized' } }), 'Unauthorized');
    assert.equal(serviceMessage({ cod: 401 }), undefined);
  });
});
