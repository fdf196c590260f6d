import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hasHangul } from './has-hangul.ts';
import { describeWeatherCode } from './weather-codes.ts';

describe('describeWeatherCode', () => {
  it('gives Korean and English words for WMO codes', () => {
    assert.equal(describeWeatherCode(0), '맑음 / clear sky');
    assert.equal(describeWeatherCode(95), '뇌우 / thunderstorm');
  });

  it('says unknown for a missing or unlisted code, keeping the number', () => {
    assert.equal(describeWeatherCode(null), '알 수 없음 / unknown');
    assert.equal(describeWeatherCode(42), '알 수 없음 / unknown (WMO code 42)');
  });
});

describe('hasHangul', () => {
  it('sees Korean syllables and jamo, and nothing in other scripts', () => {
    assert.equal(hasHangul('부산 날씨'), true);
    assert.equal(hasHangul('ㅋㅋ'), true);
    assert.equal(hasHangul('Seoul'), false);
    assert.equal(hasHangul('東京 ソウル'), false);
  });
});
