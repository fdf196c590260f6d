import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deny, maxInputChars, pii, promptInjection, toolArgs } from './factories.ts';
import { refusalOf } from './refusal-of.ts';
import type { GuardrailRecord } from './types.ts';

const block = (
  reason: string,
  stage: GuardrailRecord['stage'] = 'input',
  name = 'pii',
): GuardrailRecord => ({
  name,
  stage,
  action: 'block',
  reason,
});

describe('refusalOf', () => {
  it('names what was found in Korean, with the right particle, never the value', () => {
    assert.equal(
      refusalOf(block('card'), true),
      '메시지에 카드 번호가 있어 처리할 수 없습니다. 해당 내용을 빼고 다시 보내 주세요.',
    );
    assert.equal(
      refusalOf(block('rrn, card (redact)'), true),
      '메시지에 주민등록번호가 있어 처리할 수 없습니다. 해당 내용을 빼고 다시 보내 주세요.',
    );
    assert.match(refusalOf(block('account'), true), /계좌번호가 있어/);
    assert.match(refusalOf(block('phone, email'), true), /전화번호, 이메일 주소가 있어/);
    assert.match(refusalOf(block('email'), true), /이메일 주소가/);
    assert.match(refusalOf(block('ip'), true), /IP 주소가/);
    assert.match(refusalOf(block('card'), true), /카드 번호가/);
    assert.match(refusalOf(block('account'), true), /계좌번호가/);
  });

  it('names what was found in English', () => {
    assert.equal(
      refusalOf(block('card'), false),
      "I can't process this message: it contains a card number. Please remove it and try again.",
    );
    assert.match(
      refusalOf(block('rrn, email'), false),
      /a resident registration number and an e-mail address/,
    );
  });

  it('says an injection without asking to remove data', () => {
    assert.equal(
      refusalOf(block('instruction override', 'input', 'promptInjection'), true),
      '메시지에 지시를 무시하게 하려는 요청이 있어 처리할 수 없습니다.',
    );
    assert.equal(
      refusalOf(block('system prompt extraction', 'input', 'promptInjection'), false),
      "I can't process this message: it contains an attempt to extract my system prompt.",
    );
  });

  it('speaks of the answer on output, and of the tool on the tools stage', () => {
    assert.equal(
      refusalOf(block('phone', 'output'), true),
      '답변에 전화번호가 포함되어 보여 드릴 수 없습니다.',
    );
    assert.equal(
      refusalOf(block('card', 'output'), false),
      "I can't show this answer: it contained a card number.",
    );
    assert.match(
      refusalOf({ ...block('card', 'tools'), tool: 'web_search' }, true),
      /^도구 호출에 카드 번호가/,
    );
  });

  it('names the limit, a failed check, and otherwise the guardrail', () => {
    assert.equal(
      refusalOf(block('more than 8000 characters', 'input', 'maxInputChars'), true),
      '메시지가 너무 길어 처리할 수 없습니다 (최대 8000자).',
    );
    assert.match(
      refusalOf(block('guardrail failed: timed out after 5000 ms', 'input', 'mine'), false),
      /safety check could not finish/,
    );
    assert.equal(
      refusalOf(block('order cancellation', 'input', 'orders'), true),
      '안전 점검(orders)에서 차단되어 처리할 수 없습니다.',
    );
    assert.match(
      refusalOf(block('denied word', 'input', 'deny'), false),
      /a word that is not allowed/,
    );
  });
});

describe('the factories', () => {
  it('record their options only', () => {
    assert.deepEqual(pii({ card: 'warn' }), {
      kind: 'builtin',
      builtin: 'pii',
      options: { card: 'warn' },
    });
    assert.deepEqual(pii(), { kind: 'builtin', builtin: 'pii', options: {} });
    assert.deepEqual(promptInjection({ name: 'pi' }), {
      kind: 'builtin',
      builtin: 'promptInjection',
      options: { name: 'pi' },
    });
    assert.deepEqual(deny({ words: ['a'] }), {
      kind: 'builtin',
      builtin: 'deny',
      options: { words: ['a'] },
    });
    assert.deepEqual(maxInputChars(10, { name: 'short' }), {
      kind: 'builtin',
      builtin: 'maxInputChars',
      options: { name: 'short', n: 10 },
    });
    assert.deepEqual(toolArgs({ t: { a: 'x' } }), {
      kind: 'builtin',
      builtin: 'toolArgs',
      options: { spec: { t: { a: 'x' } } },
    });
  });
});
