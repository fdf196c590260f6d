/** `. _ % + - @`: the characters besides letters and digits that numbers and addresses are made of. */
function isJoiner(code: number): boolean {
  return (
    code === 0x2e ||
    code === 0x5f ||
    code === 0x25 ||
    code === 0x2b ||
    code === 0x2d ||
    code === 0x40
  );
}

function isAsciiToken(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    isJoiner(code)
  );
}

const tokenAfterNfkc = /[0-9A-Za-z._%+\-@]/;

/**
 * Whether a character (its code point) could be part of a number, an address or a Latin word
 * after NFKC: ASCII letters, digits and joiners, their full-width forms, and anything NFKC turns
 * into one (`①`, `ﬁ`). Hangul and CJK never are.
 */
export function isTokenCharacter(codePoint: number): boolean {
  if (codePoint < 0x80) return isAsciiToken(codePoint);
  if (codePoint >= 0xff01 && codePoint <= 0xff5e) return isAsciiToken(codePoint - 0xfee0);
  if ((codePoint >= 0xac00 && codePoint <= 0xd7a3) || (codePoint >= 0x3000 && codePoint <= 0x9fff))
    return false;
  return tokenAfterNfkc.test(String.fromCodePoint(codePoint).normalize('NFKC'));
}

/** Whether a code unit is a digit after NFKC (ASCII or full-width). */
function isDigitUnit(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0xff10 && code <= 0xff19);
}

/**
 * Where the tail of a streamed text that could still grow into a match starts: the current run
 * of number, address or word characters (a space counts when a digit is before it: `010 1234 `),
 * and a lone high surrogate waiting for its pair; joiners no match starts with are left out of its
 * front (`반갑습니다.` holds nothing). Looks back at most `limit + 1` characters; a
 * result further back than `limit` means the tail is longer than any match.
 */
export function holdFrom(text: string, limit: number): number {
  let at = text.length;
  const last = text.charCodeAt(at - 1);
  if (last >= 0xd800 && last <= 0xdbff) at -= 1;
  while (at > 0 && text.length - at <= limit) {
    const code = text.charCodeAt(at - 1);
    if (code >= 0xdc00 && code <= 0xdfff && at >= 2) {
      if (!isTokenCharacter(text.codePointAt(at - 2) as number)) break;
      at -= 2;
    } else if (isTokenCharacter(code)) at -= 1;
    else if ((code === 0x20 || code === 0x3000) && at >= 2 && isDigitUnit(text.charCodeAt(at - 2)))
      at -= 1;
    else break;
  }
  // No match starts with `.`, `_`, `%`, `-` or `@`: those at the front of the tail go now.
  while (at < text.length && text.length - at <= limit && isLeadingJoiner(text.charCodeAt(at)))
    at += 1;
  return at;
}

function isLeadingJoiner(code: number): boolean {
  return code === 0x2e || code === 0x5f || code === 0x25 || code === 0x2d || code === 0x40;
}
