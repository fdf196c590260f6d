/**
 * Text as the answer scorers compare it: Unicode-normalised, lower case, whitespace folded,
 * and numbers by value (thousands separators and a trailing `.0` dropped: `56,088` =
 * `56088`, `3.0` = `3`).
 */
export function comparableText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+/g, (number) =>
      number.replace(/,/g, '').replace(/\.0+$/, ''),
    )
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether `answer` states `expected` (see `comparableText`). */
export function statesExpected(answer: string, expected: string): boolean {
  return comparableText(answer).includes(comparableText(expected));
}

/** A text shortened for a reason line. */
export function quoted(text: string, length = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `"${flat.length > length ? `${flat.slice(0, length - 1)}…` : flat}"`;
}
