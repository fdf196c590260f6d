import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assessGrounding } from './grounding-check.ts';
import { statedCounts } from './stated-counts.ts';

/** A query_logs result as the tool returns it: 17 matches, the newest 3 listed. */
const logResult = JSON.stringify({
  count: 17,
  events: [
    ['2025-03-14T05:12:38.837Z', 'ORD-52116', 'req-01230'],
    ['2025-03-14T05:07:22.808Z', 'ORD-52115', 'req-01228'],
    ['2025-03-14T05:06:28.882Z', 'ORD-52114', 'req-01226'],
  ].map(([timestamp, order, request]) => ({
    timestamp,
    level: 'error',
    service: 'payment-service',
    status: 500,
    message: `card-gateway request timed out after 5000 ms for ${order}`,
    order_id: order,
    request_id: request,
    duration_ms: 5012,
  })),
  note: 'count is exact: 17 events match; events lists the newest 3',
});
const korean = 'payment-service에서 500 에러 로그 보여줘';
const english = 'Show me the 500 errors of payment-service';
const assess = (answer: string, question = korean, toolResults = [logResult]) =>
  assessGrounding({ question, answer, toolResults, context: '' });

describe('grounding of counts in ops answers', () => {
  it('accepts the tool’s count in any format', () => {
    for (const answer of [
      '500 에러가 17건 발생했습니다.',
      '17건의 에러가 있습니다.',
      '에러 17개를 찾았습니다.',
      '열일곱 건의 에러가 있습니다.',
      'payment-service logged 17 events with status 500.',
      'There were seventeen errors.',
      'payment-service returned 17 HTTP 500 errors.',
    ]) {
      const { check, finding } = assess(answer);
      assert.equal(check.passed, true, `${answer}: ${check.feedback}`);
      assert.equal(finding, 'fine');
    }
  });

  it('accepts the number of events the answer quotes, the statuses it names and its times', () => {
    const answer =
      '조건에 맞는 이벤트는 17건입니다. 가장 최근 3건:\n- 2025-03-14T05:12:38.837Z payment-service ERROR 500 ' +
      'card-gateway request timed out after 5000 ms for ORD-52116 (req-01230, 14시 12분 KST)';
    assert.equal(assess(answer).check.passed, true);
    assert.equal(assess('17 events match. The newest 3: …', english).check.passed, true);
  });

  it('contradicts a wrong count with feedback naming the real count', () => {
    const { check, finding } = assess('payment-service에서 500 에러가 12건 발생했습니다.');
    assert.equal(finding, 'contradicted');
    assert.equal(check.score, 0);
    assert.match(check.feedback, /^실제 이벤트 수는 17건입니다\./);
    assert.match(check.feedback, /12건/);
  });

  it('gives the feedback in English when the question is in English', () => {
    const { check } = assess('payment-service had 12 errors.', english);
    assert.match(check.feedback, /^The actual number of events is 17\./);
  });

  it('contradicts a wrong count that equals a minute, a second or an id digit of the events', () => {
    for (const wrong of [12, 22, 38, 52116]) {
      const { finding, check } = assess(`500 에러가 ${wrong}건 발생했습니다.`);
      assert.equal(finding, 'contradicted', `${wrong}건 passed as grounded`);
      assert.match(check.feedback, /실제 이벤트 수는 17건입니다/);
    }
  });

  it('finds an answer that denies what the tools found ungrounded', () => {
    for (const answer of [
      'payment-service에는 500 에러가 없습니다.',
      '0건입니다.',
      'No errors were found.',
    ]) {
      assert.equal(assess(answer).finding, 'ungrounded', answer);
    }
    assert.equal(assess('500 에러는 17건이고, 그 밖의 에러는 없습니다.').finding, 'fine');
  });

  it('accepts "none" when the tool counted none', () => {
    const empty = JSON.stringify({ count: 0, events: [] });
    assert.equal(
      assess('조건에 맞는 로그 이벤트가 없습니다 (0건).', korean, [empty]).check.passed,
      true,
    );
  });

  it('asks for the count when the answer states none', () => {
    const { check, finding } = assess('에러 로그를 확인했습니다.');
    assert.equal(check.score, 0.5);
    assert.equal(finding, 'fine');
    assert.match(check.feedback, /17건/);
  });

  it('accepts tallies of the events when the tool listed all it matched', () => {
    const mixed = JSON.stringify({
      count: 3,
      events: [500, 503, 503].map((status) => ({ level: 'error', status, message: 'x' })),
    });
    assert.equal(assess('에러 3건 중 503이 2건입니다.', korean, [mixed]).check.passed, true);
  });

  it('checks numbers other than counts against the quantities of the results', () => {
    const { check, finding } = assess('17건이며 모두 7000 ms 뒤에 끊겼습니다.');
    assert.equal(finding, 'contradicted');
    assert.match(check.feedback, /7000/);
    assert.equal(assess('17건이며 모두 5000 ms 뒤에 끊겼습니다.').check.passed, true);
  });
});

describe('stated counts', () => {
  it('reads an HTTP status before "errors" as the status, not a count', () => {
    assert.deepEqual(
      statedCounts('17 500 errors, then 500 errors again', new Set([500])).map(
        (count) => count.value,
      ),
      [17],
    );
  });

  it('does not read "한 건도 없" as a count of one', () => {
    assert.deepEqual(statedCounts('에러가 한 건도 없습니다', new Set()), []);
  });
});
