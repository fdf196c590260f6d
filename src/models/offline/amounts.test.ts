import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changeExpression, formatMoney, moneyIn, percentChangeIn } from './amounts.ts';

describe('offline model amounts', () => {
  it('reads a percentage change from Korean and English questions', () => {
    assert.deepEqual(percentChangeIn('팀 예산이 얼마야? 20% 증가하면?'), { percent: 20, up: true });
    assert.deepEqual(percentChangeIn('15퍼센트 삭감되면?'), { percent: 15, up: false });
    assert.deepEqual(percentChangeIn('12.5%씩 인상하면'), { percent: 12.5, up: true });
    assert.deepEqual(percentChangeIn('What if we cut it by 10%?'), { percent: 10, up: false });
    assert.deepEqual(percentChangeIn('and 5% more?'), { percent: 5, up: true });
    assert.equal(percentChangeIn('예산을 20% 넘게 바꾸려면 승인이 필요합니다'), undefined);
    assert.equal(percentChangeIn('팀 예산이 얼마야?'), undefined);
  });

  it('reads amounts of money written with Korean units, and dollars', () => {
    const values = (text: string) => moneyIn(text).map((amount) => amount.value);
    assert.deepEqual(values('2024년 팀 예산: 1억원.'), [100_000_000]);
    assert.deepEqual(values('1억 5천만원과 5,000만원'), [150_000_000, 50_000_000]);
    assert.deepEqual(values('출장비 1천5백만원, 기타 3천5백만원'), [15_000_000, 35_000_000]);
    assert.deepEqual(values('120,000,000원'), [120_000_000]);
    assert.deepEqual(values('$12,000 and $1.5 million'), [12_000, 1_500_000]);
    assert.deepEqual(values('2024년 직원 30명'), []);
  });

  it('writes the calculator expression and reads the result back as money', () => {
    const [budget] = moneyIn('1억원');
    assert.ok(budget);
    assert.equal(changeExpression(budget, { percent: 20, up: true }), '100000000 * 1.2');
    assert.equal(changeExpression(budget, { percent: 15, up: false }), '100000000 * 0.85');
    assert.equal(formatMoney(120_000_000, 'KRW'), '120,000,000원(1.2억원)');
    assert.equal(formatMoney(85_000_000, 'KRW'), '85,000,000원(8,500만원)');
    assert.equal(formatMoney(9_000, 'KRW'), '9,000원');
    assert.equal(formatMoney(10_800, 'USD'), '$10,800');
  });
});
