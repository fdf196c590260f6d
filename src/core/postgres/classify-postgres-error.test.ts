import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StoreUnavailableError } from '../errors/store-unavailable-error.ts';
import {
  describePostgresTarget,
  isConnectionFailure,
  toStoreError,
} from './classify-postgres-error.ts';

function failure(message: string, code?: string): Error {
  return Object.assign(new Error(message), code ? { code } : {});
}

describe('toStoreError', () => {
  it('turns refused, unknown-host and reset connections into store_unavailable', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET', 'ETIMEDOUT', 'EAI_AGAIN']) {
      const error = toStoreError(failure(`connect ${code}`, code), '127.0.0.1:5432/yeoul');
      assert.ok(error instanceof StoreUnavailableError, code);
      assert.equal(error.code, 'store_unavailable');
      assert.match(error.message, /127\.0\.0\.1:5432\/yeoul/);
    }
  });

  it('treats server shutdowns, connection exceptions and statement timeouts as unavailable', () => {
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001', '53300', '57014']) {
      assert.equal(isConnectionFailure(failure('server said no', code)), true, code);
    }
  });

  it('recognises the driver’s own messages for broken and timed-out connections', () => {
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated due to connection timeout',
      'timeout exceeded when trying to connect',
      'Client has encountered a connection error and is not queryable',
      'Query read timeout',
    ]) {
      assert.equal(isConnectionFailure(new Error(message)), true, message);
    }
  });

  it('looks inside the AggregateError of a multi-address connect', () => {
    const error = new AggregateError([failure('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')]);
    const store = toStoreError(error);
    assert.ok(store instanceof StoreUnavailableError);
    assert.match(store.reason, /ECONNREFUSED/);
  });

  it('leaves query errors (syntax, constraints) as they are', () => {
    const syntax = failure('syntax error at or near "SELEC"', '42601');
    const unique = failure('duplicate key value violates unique constraint', '23505');
    assert.equal(toStoreError(syntax), syntax);
    assert.equal(toStoreError(unique), unique);
    assert.equal(toStoreError('not an error'), 'not an error');
  });
});

describe('describePostgresTarget', () => {
  it('names host, port and database but never the credentials', () => {
    const target = describePostgresTarget(
      'postgres://yeoul:s3cret@db.internal:6543/app?sslmode=require',
    );
    assert.equal(target, 'db.internal:6543/app');
    assert.doesNotMatch(target, /s3cret|yeoul@/);
    assert.equal(describePostgresTarget('postgres://localhost/app'), 'localhost:5432/app');
  });
});
