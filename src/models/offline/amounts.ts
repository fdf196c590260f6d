import { formatNumber } from './language.ts';

/** A percentage change a message asks about: "20% 증가하면?", "cut by 15%". */
export interface PercentChange {
  percent: number;
  up: boolean;
}

/** An amount of money found in a text: "1억원", "5,000만원", "$1,200". */
export interface MoneyAmount {
  text: string;
  value: number;
  currency: 'KRW' | 'USD';
}

const upWords = /^(?:증가|인상|늘|올|상승|increase|raise|rise|grow|more|higher|up)/i;

/** The percentage change a message asks about, if it asks about one. */
export function percentChangeIn(text: string): PercentChange | undefined {
  const korean = text.match(
    /(\d+(?:\.\d+)?)\s*(?:%|퍼센트|프로)\s*(?:가|를|씩|만큼)?\s*(증가|인상|늘|올|상승|감소|인하|줄|삭감|하락|깎)/,
  );
  if (korean?.[1] && korean[2]) return { percent: Number(korean[1]), up: upWords.test(korean[2]) };
  const byPercent = text.match(
    /\b(increase|raise|rise|grow|cut|decrease|reduce|lower)[a-z]*\b[^.?!%]*?\bby\s+(\d+(?:\.\d+)?)\s*%/i,
  );
  if (byPercent?.[1] && byPercent[2]) {
    return { percent: Number(byPercent[2]), up: upWords.test(byPercent[1]) };
  }
  const percentFirst = text.match(
    /(\d+(?:\.\d+)?)\s*%\s*(more|less|higher|lower|increase|decrease|up|down)\b/i,
  );
  if (percentFirst?.[1] && percentFirst[2]) {
    return { percent: Number(percentFirst[1]), up: upWords.test(percentFirst[2]) };
  }
  return undefined;
}

const bigUnits: Record<string, number> = { 조: 1e12, 억: 1e8, 만: 1e4 };
const smallUnits: Record<string, number> = { 천: 1e3, 백: 1e2, 십: 10 };

const plain = (digits: string) => Number(digits.replace(/,/g, ''));

/** A number written with Korean units: `1억 5천만` → 150000000, `1천5백만` → 15000000. */
function koreanNumber(text: string): number {
  let total = 0;
  let section = 0;
  for (const part of text.matchAll(/(\d[\d,]*(?:\.\d+)?)\s*(천|백|십)?\s*(조|억|만)?/g)) {
    section += plain(part[1] ?? '0') * (smallUnits[part[2] ?? ''] ?? 1);
    const big = bigUnits[part[3] ?? ''];
    if (big !== undefined) {
      total += section * big;
      section = 0;
    }
  }
  return total + section;
}

/** Amounts of money in a text, in order: Korean won (with 조/억/만/천/백 units), and dollars. */
export function moneyIn(text: string): MoneyAmount[] {
  const found: Array<MoneyAmount & { at: number }> = [];
  const won = /(?:\d[\d,]*(?:\.\d+)?\s*(?:천|백|십)?\s*(?:조|억|만)?\s*)+원/g;
  for (const match of text.matchAll(won)) {
    const value = koreanNumber(match[0]);
    if (Number.isFinite(value) && value > 0) {
      found.push({ text: match[0].trim(), value, currency: 'KRW', at: match.index });
    }
  }
  const dollars = /\$\s?(\d[\d,]*(?:\.\d+)?)\s*(million|billion|k)?\b/gi;
  for (const match of text.matchAll(dollars)) {
    const scale = { million: 1e6, billion: 1e9, k: 1e3 }[match[2]?.toLowerCase() ?? ''] ?? 1;
    const value = plain(match[1] ?? '0') * scale;
    if (value > 0) found.push({ text: match[0].trim(), value, currency: 'USD', at: match.index });
  }
  return found.sort((a, b) => a.at - b.at).map(({ at: _, ...amount }) => amount);
}

/** The calculator expression for a change: `100000000 * 1.2`. */
export function changeExpression(amount: MoneyAmount, change: PercentChange): string {
  const factor = Number((1 + ((change.up ? 1 : -1) * change.percent) / 100).toFixed(10));
  return `${amount.value} * ${factor}`;
}

/** Money as people read it: `120,000,000원(1.2억원)`, `$1,200`. */
export function formatMoney(value: number, currency: MoneyAmount['currency']): string {
  if (currency === 'USD') return `$${formatNumber(value)}`;
  const exact = `${formatNumber(value)}원`;
  const unit = Object.entries(bigUnits).find(([, size]) => value >= size);
  if (unit === undefined) return exact;
  const [name, size] = unit;
  return `${exact}(${formatNumber(Number((value / size).toFixed(4)))}${name}원)`;
}
