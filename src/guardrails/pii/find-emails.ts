import type { Span } from './digit-runs.ts';

/** `A–Z a–z 0–9 . _ % + -`: the characters of an address's local part. */
function isLocalCharacter(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2e ||
    code === 0x5f ||
    code === 0x25 ||
    code === 0x2b ||
    code === 0x2d
  );
}

function isLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

/** Letters, digits, hyphens and dots: the characters of a domain. */
function isDomainCharacter(code: number): boolean {
  return isLetter(code) || (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2e;
}

const maxLocal = 64;
const maxAddress = 254;

/**
 * The end of the longest valid domain starting at `start` and ending by `limit`: dot-separated
 * labels of letters, digits and inner hyphens, the last one 2–24 letters, at least two labels.
 * -1 when there is none.
 */
function domainEnd(text: string, start: number, limit: number): number {
  let best = -1;
  let labelStart = start;
  let labels = 0;
  for (let at = start; at <= limit; at += 1) {
    const code = at < limit ? text.charCodeAt(at) : 0x2e;
    if (code !== 0x2e) continue;
    const length = at - labelStart;
    if (length === 0 || length > 63) return best;
    if (text.charCodeAt(labelStart) === 0x2d || text.charCodeAt(at - 1) === 0x2d) return best;
    labels += 1;
    if (labels >= 2 && length >= 2 && length <= 24) {
      let letters = true;
      for (let index = labelStart; index < at && letters; index += 1)
        letters = isLetter(text.charCodeAt(index));
      if (letters) best = at;
    }
    labelStart = at + 1;
  }
  return best;
}

/**
 * E-mail addresses: `local@domain`, the local part 1–64 of `A–Z a–z 0–9 . _ % + -` neither
 * starting nor ending with a dot, at most 254 characters in all. Any other character ends the
 * address (`hong@example.com으로` → `hong@example.com`). Each `@` costs at most the address's
 * length, so the scan is linear.
 */
export function findEmails(text: string, found: Span[]): void {
  let from = 0;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    // The local part: back to the first character that cannot be in one (at most 65 looked at).
    let start = at;
    while (start > from && at - start <= maxLocal && isLocalCharacter(text.charCodeAt(start - 1)))
      start -= 1;
    if (at - start > maxLocal) continue;
    while (start < at && text.charCodeAt(start) === 0x2e) start += 1;
    if (start === at || text.charCodeAt(at - 1) === 0x2e) continue;
    let limit = at + 1;
    const furthest = Math.min(text.length, start + maxAddress);
    while (limit < furthest && isDomainCharacter(text.charCodeAt(limit))) limit += 1;
    // A sentence's full stop or a dash after the address is not part of it.
    while (
      limit > at + 1 &&
      (text.charCodeAt(limit - 1) === 0x2e || text.charCodeAt(limit - 1) === 0x2d)
    )
      limit -= 1;
    const end = domainEnd(text, at + 1, limit);
    if (end === -1) continue;
    found.push({ start, end });
    from = end;
    at = end - 1;
  }
}
