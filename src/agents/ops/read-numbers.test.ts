import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { numberOfWord, quantitiesIn, withoutReferences } from './read-numbers.ts';

describe('reading quantities', () => {
  it('keeps no digit of timestamps, clock times and dates', () => {
    assert.deepEqual(quantitiesIn('2025-03-14T05:07:38.837Z'), []);
    assert.deepEqual(quantitiesIn('at 05:07:38 UTC, 14:03–14:08 KST'), []);
    assert.deepEqual(quantitiesIn('2025년 3월 14일 오후 2시 7분 38초에'), []);
    assert.deepEqual(quantitiesIn('on March 14, 2025 and 14 Mar'), []);
  });

  it('keeps no digit of ids, versions, addresses, ports, paths and list markers', () => {
    assert.deepEqual(quantitiesIn('ORD-52116 req-01230 TX88114 payment-7f9c v2.14.1'), []);
    assert.deepEqual(quantitiesIn('listening on :8080, 10.0.0.12:8787, localhost:5432'), []);
    assert.deepEqual(quantitiesIn('GET /api/v1/orders/52116 https://example.com/a/1'), []);
    assert.deepEqual(quantitiesIn('1. first\n2. second [3]'), []);
  });

  it('keeps quantities in every format, with counters and units beside them', () => {
    assert.deepEqual(
      quantitiesIn('17건, 1,234 events, 5000 ms, 3.5 GB, 총17건, HTTP 500'),
      [17, 1234, 5000, 3.5, 17, 500],
    );
  });

  it('blanks references without moving the rest of the text', () => {
    const text = 'ORD-52116 failed 3 times';
    assert.equal(withoutReferences(text).length, text.length);
    assert.equal(withoutReferences(text).indexOf('3'), text.indexOf('3'));
  });

  it('reads numbers written as words, in English and in Korean', () => {
    assert.equal(numberOfWord('four'), 4);
    assert.equal(numberOfWord('seventeen'), 17);
    assert.equal(numberOfWord('twenty-one'), 21);
    assert.equal(numberOfWord('네'), 4);
    assert.equal(numberOfWord('열일곱'), 17);
    assert.equal(numberOfWord('스물두'), 22);
    assert.equal(numberOfWord('1,234'), 1234);
    assert.equal(numberOfWord('many'), undefined);
  });
});
