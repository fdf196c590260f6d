import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { knowledgeCheck } from './knowledge-check.ts';

const context = [
  '[1] 결제 장애 대응 런북 — 결제 장애 대응 런북 > 조치',
  'card-gateway는 타임아웃이 이어지면 해당 VAN사의 회로를 열고 다른 VAN사로 우회합니다.',
  '',
  '[2] 휴가 정책 — 휴가 정책 > 병가',
  '병가는 연 10일까지 유급으로 쓸 수 있습니다.',
].join('\n');
const question = '결제 장애가 나면 어떻게 해?';
const check = (answer: string, toolResults: string[] = []) =>
  knowledgeCheck({ question, answer, toolResults, context });

describe('knowledge-base check', () => {
  it('does not apply to an answer that cites no document', () => {
    assert.equal(check('VAN사 회로를 확인하세요.'), undefined);
  });

  it('passes citations of the documents given and passages they contain', () => {
    const result = check(
      '「결제 장애 대응 런북」에 따르면 "타임아웃이 이어지면 해당 VAN사의 회로를 열고" 우회합니다 [1].',
    );
    assert.deepEqual(result?.check, { name: 'knowledge', score: 1, passed: true, feedback: '' });
    assert.equal(result?.finding, 'fine');
  });

  it('contradicts a reference number that is not among the documents', () => {
    const result = check('VAN사 회로를 열고 우회합니다 [3].');
    assert.equal(result?.check.passed, false);
    assert.equal(result?.finding, 'contradicted');
    assert.match(result?.check.feedback ?? '', /\[3\]/);
  });

  it('contradicts a quoted passage the cited document does not contain', () => {
    const result = check(
      '결제 장애 대응 런북에는 "결제 실패는 10분 뒤 자동으로 다시 시도합니다"라고 되어 있습니다.',
    );
    assert.equal(result?.check.passed, false);
    assert.equal(result?.check.score, 0);
    assert.match(result?.check.feedback ?? '', /자동으로 다시 시도/);
  });

  it('contradicts a source line naming a document that was not given', () => {
    const result = check('VAN사 우선순위를 바꾸세요. 출처: 결제 운영 매뉴얼');
    assert.equal(result?.check.passed, false);
    assert.match(result?.check.feedback ?? '', /결제 운영 매뉴얼/);
  });

  it('accepts documents found by search_knowledge, quoted word for word', () => {
    const found = JSON.stringify({
      passages: [
        {
          documentId: 'runbook',
          chunkId: 'runbook#2',
          title: '장애 보고서 양식',
          text: '장애 보고서에는 시작과 끝 시각, 서비스별 에러 건수를 남깁니다.',
          score: 3.2,
        },
      ],
    });
    const result = knowledgeCheck({
      question,
      answer: '「장애 보고서 양식」: "시작과 끝 시각, 서비스별 에러 건수를 남깁니다"',
      toolResults: [found],
      context: '',
    });
    assert.equal(result?.check.passed, true);
  });
});
