import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../testing/internal/index.ts';
import { compileGuardrails } from './compile-guardrails.ts';
import { defineGuardrail, deny, pii } from './factories.ts';
import { PlaceholderVault } from './placeholder-vault.ts';
import type { GraphGuardrails, OutputGuard, StageRun } from './suite-types.ts';
import type { GuardrailsConfig } from './types.ts';

function guardrailsOf(config: GuardrailsConfig): GraphGuardrails {
  const compiled = compileGuardrails(config, { chatGraphs: ['chat'], configTools: [] });
  if (!compiled.ok) assert.fail(compiled.problems.join('\n'));
  return compiled.suite.forGraph('chat');
}

const run = (): StageRun => ({
  sessionId: 's',
  graph: 'chat',
  signal: new AbortController().signal,
  vault: new PlaceholderVault(),
});

/** Streams chunks through a fresh output guard: what was sent chunk by chunk, then the end. */
async function stream(guardrails: GraphGuardrails, chunks: readonly string[]) {
  const guard = guardrails.openOutput(run()) as OutputGuard;
  const sent: string[] = [];
  for (const chunk of chunks) sent.push(guard.push(chunk));
  const end = await guard.end();
  sent.push(end.rest);
  return { sent: sent.join(''), pieces: sent, end, guard };
}

/** Every way to cut a text in two, and the text one character at a time. */
function splits(text: string): string[][] {
  const ways = [[...text]];
  for (let at = 1; at < text.length; at += 1) ways.push([text.slice(0, at), text.slice(at)]);
  return ways;
}

const piiOutput = guardrailsOf({ output: [pii({ ip: 'redact' })] });

const redacted: ReadonlyArray<[string, string]> = [
  ['메일은 hong@example.com으로 보내세요.', '메일은 [EMAIL]으로 보내세요.'],
  ['전화 010-1234-5678 또는 +82 10-2345-6789', '전화 [PHONE] 또는 [PHONE]'],
  ['주민번호 900101-1234568 확인', '주민번호 [RRN] 확인'],
  ['신한은행 110-123-456789로 입금', '신한은행 [ACCOUNT]로 입금'],
  ['서버 10.0.0.1 점검', '서버 [IP] 점검'],
  ['ＨＯＮＧ＠ＥＸＡＭＰＬＥ．ＣＯＭ 그리고 ０１０－１２３４－５６７８', '[EMAIL] 그리고 [PHONE]'],
  ['Reach kim.minsu+yeoul@mail.co.kr or 02-123-4567.', 'Reach [EMAIL] or [PHONE].'],
  ['계좌 1234567890123', '계좌 [ACCOUNT]'],
  ['버전 1.2.3.4.5와 주문 1588-1234는 그대로', '버전 1.2.3.4.5와 주문 1588-1234는 그대로'],
];

describe('StreamingOutputGuard: redaction', () => {
  for (const [text, expected] of redacted) {
    it(`redacts "${text}" however the chunks split it`, async () => {
      for (const chunks of splits(text)) {
        const { sent, end } = await stream(piiOutput, chunks);
        assert.equal(sent, expected, JSON.stringify(chunks));
        assert.equal(end.text, expected);
      }
    });
  }

  it('never sends any part of a match before it is decided', async () => {
    const text = '연락처 010-1234-5678, 메일 hong@example.com 입니다';
    const { pieces } = await stream(piiOutput, [...text]);
    for (const [index, piece] of pieces.entries()) {
      assert.ok(!/[0-9@]/.test(piece) || piece.includes('['), `piece ${index}: ${piece}`);
    }
  });

  it('records each guardrail once, with every kind it redacted', async () => {
    const { end } = await stream(piiOutput, ['a@x.com ', '그리고 ', '010-1234-5678 ', 'b@y.org']);
    assert.deepEqual(end.records, [
      { name: 'pii', stage: 'output', action: 'redact', reason: 'email, phone' },
    ]);
    assert.equal(end.blocked, undefined);
  });

  it('writes unnumbered placeholders even for restorable kinds', async () => {
    const { sent } = await stream(piiOutput, ['a@x.com b@x.com']);
    assert.equal(sent, '[EMAIL] [EMAIL]');
  });
});

describe('StreamingOutputGuard: random chunks', () => {
  const text = [
    '안녕하세요, 고객님. 문의하신 환불 건입니다. 연락처 010-9876-5432로 연락드렸고,',
    '메일(kim.minsu@corp.co.kr)로도 안내했습니다. 환불 계좌는 국민은행 123456-01-123456이며,',
    '주민번호 900101-1234568은 확인용입니다. 사무실 02-123-4567, 해외 +82 10-2345-6789.',
    'Reach me at lee_99@mail.example.org or ０１０－１１１１－２２２２. 서버 192.168.0.10 점검.',
    '버전 1.2.3.4.5, 주문 1588-1234, 날짜 2024-01-15는 그대로 둡니다.',
  ].join('\n');

  it('sends what one whole-text pass would, for any chunking', async () => {
    const whole = guardrailsOf({ input: [pii({ ip: 'redact', restore: false })] });
    const expected = (await whole.checkInput(text, run())).text;
    assert.ok(
      !expected.includes('010-9876') &&
        expected.includes('[ACCOUNT]') &&
        expected.includes('1588-1234'),
    );
    for (let seed = 1; seed <= 40; seed += 1) {
      const next = seededRandom(seed);
      const chunks: string[] = [];
      for (let at = 0; at < text.length; ) {
        const size = 1 + Math.floor(next() * (seed % 2 === 0 ? 4 : 24));
        chunks.push(text.slice(at, at + size));
        at += size;
      }
      assert.equal((await stream(piiOutput, chunks)).sent, expected, `seed ${seed}`);
    }
  });
});

describe('StreamingOutputGuard: flow', () => {
  it('lets Hangul and punctuation through at once', () => {
    const guard = piiOutput.openOutput(run()) as OutputGuard;
    assert.equal(guard.push('안녕하세요, '), '안녕하세요, ');
    assert.equal(guard.push('반갑습니다.'), '반갑습니다.');
  });

  it('holds only the current number or word', () => {
    const guard = piiOutput.openOutput(run()) as OutputGuard;
    assert.equal(guard.push('전화는 010-12'), '전화는 ');
    assert.equal(guard.push('34-5678'), '');
    assert.equal(guard.push(' '), '');
    assert.equal(guard.push('입니다'), '[PHONE] 입니다');
    assert.equal(guard.push('.'), '.');
    assert.equal(guard.push('Hello wor'), 'Hello ');
    assert.equal(guard.push('ld!'), 'world!');
  });

  it('never holds more than 256 characters of one long run', () => {
    const guard = piiOutput.openOutput(run()) as OutputGuard;
    let sent = '';
    for (let index = 0; index < 2000; index += 1) {
      sent += guard.push('a');
      assert.ok(index + 1 - sent.length <= 256, `held ${index + 1 - sent.length}`);
    }
  });

  it('still redacts an address at the end of a long run', async () => {
    // One run of 316 characters that could all be part of a match: the stream cuts inside it.
    const text = `${'x'.repeat(600)} ${'ab@'.repeat(100)}hong@example.com 끝`;
    for (const size of [1, 7, 64, 1000]) {
      const chunks = text.match(new RegExp(`[^]{1,${size}}`, 'g')) as string[];
      const { sent } = await stream(piiOutput, chunks);
      assert.equal(sent, `${'x'.repeat(600)} ${'ab@'.repeat(100)}[EMAIL] 끝`, `chunks of ${size}`);
    }
  });

  it('has no output stage without output guardrails', () => {
    assert.equal(guardrailsOf({ input: [pii()] }).openOutput(run()), undefined);
  });
});

describe('StreamingOutputGuard: block', () => {
  it('blocks a card and sends nothing of it, nor anything after', async () => {
    const text = '결제 카드는 4111 1111 1111 1111 입니다. 다음 문장.';
    for (const chunks of splits(text)) {
      const { sent, end, guard } = await stream(piiOutput, chunks);
      assert.ok(!sent.includes('4111') && !sent.includes('1111'), sent);
      assert.ok(!sent.includes('다음'), sent);
      assert.deepEqual(end.blocked, {
        name: 'pii',
        stage: 'output',
        action: 'block',
        reason: 'card',
      });
      assert.equal(guard.push('more'), '');
    }
  });
});

describe('StreamingOutputGuard: deny', () => {
  const denied = guardrailsOf({
    output: [deny({ words: ['기밀문서', 'top secret'], action: 'redact' })],
  });

  it('holds the start of a denied word and redacts it however it is split', async () => {
    for (const text of ['이건 기밀문서입니다', 'this is top secret stuff', '기밀 아닌 문서']) {
      const reference = (await stream(denied, [text])).sent;
      for (const chunks of splits(text))
        assert.equal((await stream(denied, chunks)).sent, reference);
    }
    assert.equal((await stream(denied, ['이건 기밀문서입니다'])).sent, '이건 [REDACTED]입니다');
    assert.equal((await stream(denied, ['기밀 아닌 문서'])).sent, '기밀 아닌 문서');
  });

  it('lets Hangul that cannot begin a denied word flow', () => {
    const guard = denied.openOutput(run()) as OutputGuard;
    assert.equal(guard.push('안녕 기'), '안녕 ');
    assert.equal(guard.push('분'), '기분');
  });
});

describe('StreamingOutputGuard: custom output guardrails', () => {
  it('hold the whole answer and see it once at the end', async () => {
    const seen: string[] = [];
    const guardrails = guardrailsOf({
      output: [
        pii(),
        defineGuardrail({
          name: 'polite',
          stage: 'output',
          check: (text) => {
            seen.push(text);
            return text.includes('바보') ? { action: 'block', reason: 'rude' } : undefined;
          },
        }),
      ],
    });
    const ok = await stream(guardrails, ['안녕, ', 'a@x.com ', '입니다']);
    assert.deepEqual(ok.pieces, ['', '', '', '안녕, [EMAIL] 입니다']);
    assert.deepEqual(seen, ['안녕, [EMAIL] 입니다']);
    const rude = await stream(guardrails, ['너 ', '바보']);
    assert.equal(rude.sent, '');
    assert.equal(rude.end.blocked?.reason, 'rude');
  });
});
