import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hideUrlPasswords, serializeError } from './serialize-error.ts';

describe('serializeError', () => {
  it('keeps the type, message, codes and causes, and nothing a driver hangs on its errors', () => {
    const cause = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
      severity: 'FATAL',
      internalQuery: 'SELECT secret FROM accounts WHERE id = $1',
      client: { connectionParameters: { password: 'hunter2' }, queryQueue: [] },
    });
    const error = Object.assign(new Error('The postgres store is unavailable', { cause }), {
      code: 'store_unavailable',
      store: 'postgres',
      config: { connectionString: 'postgres://yeoul:hunter2@db:5432/yeoul' },
    });
    const logged = serializeError(error);
    assert.equal(logged.type, 'Error');
    assert.equal(logged.code, 'store_unavailable');
    assert.equal(logged.store, 'postgres');
    assert.equal(logged.cause?.code, '57P01');
    assert.equal(logged.cause?.severity, 'FATAL');
    const text = JSON.stringify(logged);
    assert.doesNotMatch(text, /hunter2|SELECT secret|queryQueue|connectionParameters/);
  });

  it('hides the password of any URL in messages and stacks', () => {
    const error = new Error('could not connect to postgres://app:s3cr%40t@10.0.0.5:5432/yeoul');
    assert.doesNotMatch(JSON.stringify(serializeError(error)), /s3cr/);
    assert.equal(
      hideUrlPasswords('see postgresql://app:pw@host/db and https://host/path'),
      'see postgresql://app:***@host/db and https://host/path',
    );
  });

  it('logs a thrown non-error as its text', () => {
    assert.deepEqual(serializeError('boom'), { type: 'string', message: 'boom' });
  });
});
