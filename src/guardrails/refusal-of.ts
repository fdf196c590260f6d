import { injectionFamilies } from './injection/injection-families.ts';
import type { GuardrailRecord } from './types.ts';

/** What each finding is called, in Korean and in English. */
const names: Record<string, [string, string]> = {
  rrn: ['주민등록번호', 'a resident registration number'],
  card: ['카드 번호', 'a card number'],
  phone: ['전화번호', 'a phone number'],
  email: ['이메일 주소', 'an e-mail address'],
  account: ['계좌번호', 'a bank account number'],
  ip: ['IP 주소', 'an IP address'],
  'denied word': ['허용되지 않는 단어', 'a word that is not allowed'],
  [injectionFamilies.override]: [
    '지시를 무시하게 하려는 요청',
    'an attempt to override my instructions',
  ],
  [injectionFamilies.extraction]: [
    '시스템 프롬프트를 알아내려는 요청',
    'an attempt to extract my system prompt',
  ],
  [injectionFamilies.role]: ['역할을 바꾸려는 요청', 'an attempt to change my role'],
};

/** 이 after a syllable with a final consonant, else 가. */
function subjectParticle(word: string): string {
  const code = word.charCodeAt(word.length - 1);
  if (code < 0xac00 || code > 0xd7a3) return '이(가)';
  return (code - 0xac00) % 28 === 0 ? '가' : '이';
}

/** `a, b and c`. */
function englishList(items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * A short refusal in the user's language that says what a blocking guardrail found (`카드 번호`,
 * `a card number`), never the value.
 * @example
 * refusalOf({ name: 'pii', stage: 'input', action: 'block', reason: 'card' }, true);
 * // '메시지에 카드 번호가 있어 처리할 수 없습니다. 해당 내용을 빼고 다시 보내 주세요.'
 */
export function refusalOf(record: GuardrailRecord, korean: boolean): string {
  const language = korean ? 0 : 1;
  const parts = record.reason.split(', ').filter((part) => !part.endsWith(')'));
  const kinds = parts
    .map((part) => names[part]?.[language])
    .filter((name): name is string => name !== undefined);
  // Data the user can take out and send again (pii, a denied word), unlike an injection.
  const removable = parts.every(
    (part) =>
      !part.startsWith('instruction') && !part.startsWith('system') && !part.startsWith('role'),
  );
  const where =
    record.stage === 'output' ? 'answer' : record.stage === 'tools' ? 'tool' : 'message';
  const limit = /^more than (\d+) characters$/.exec(record.reason);
  if (limit) {
    return korean
      ? `메시지가 너무 길어 처리할 수 없습니다 (최대 ${limit[1]}자).`
      : `I can't process this message: it is longer than ${limit[1]} characters.`;
  }
  if (record.reason.startsWith('guardrail failed')) {
    return korean
      ? '안전 점검을 마치지 못해 처리할 수 없습니다. 잠시 후 다시 시도해 주세요.'
      : "I can't process this: a safety check could not finish. Please try again later.";
  }
  if (kinds.length === 0) {
    return korean
      ? `안전 점검(${record.name})에서 차단되어 처리할 수 없습니다.`
      : `I can't process this: it was blocked by the ${record.name} check.`;
  }
  if (korean) {
    const what = kinds.join(', ');
    const particle = subjectParticle(what);
    if (where === 'answer') return `답변에 ${what}${particle} 포함되어 보여 드릴 수 없습니다.`;
    if (where === 'tool') return `도구 호출에 ${what}${particle} 있어 실행하지 않았습니다.`;
    const again = removable ? ' 해당 내용을 빼고 다시 보내 주세요.' : '';
    return `메시지에 ${what}${particle} 있어 처리할 수 없습니다.${again}`;
  }
  const what = englishList(kinds);
  if (where === 'answer') return `I can't show this answer: it contained ${what}.`;
  if (where === 'tool') return `The tool call was not run: it contained ${what}.`;
  return `I can't process this message: it contains ${what}.${removable ? ' Please remove it and try again.' : ''}`;
}
