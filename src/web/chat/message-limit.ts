/** What one request may hold, as the server's status says. */
export interface RequestLimits {
  maxInputTokens: number;
  bodyLimit: number;
}

/** Characters a single token may cover at most, by kind (generous: the estimate stays below). */
const charsPerToken = { space: 160, symbol: 80, ascii: 16, other: 6 } as const;

/**
 * At least how many tokens `text` costs in any common tokenizer: every kind of character
 * counted at the most a token can cover (runs of spaces and symbols compress well, ASCII words
 * less, Hangul and other scripts least). Never above the real count, so a message it calls
 * too long is too long; one it lets through may still be refused by the server.
 */
export function tokensAtLeast(text: string): number {
  let space = 0;
  let symbol = 0;
  let ascii = 0;
  let other = 0;
  for (const char of text) {
    if (/\s/.test(char)) space += 1;
    else if (/[A-Za-z0-9]/.test(char)) ascii += 1;
    else if (char.charCodeAt(0) < 128) symbol += 1;
    else other += 1;
  }
  return Math.ceil(
    space / charsPerToken.space +
      symbol / charsPerToken.symbol +
      ascii / charsPerToken.ascii +
      other / charsPerToken.other,
  );
}

/** Why `text` cannot be sent under `limits` (the limit it passes), or undefined when it may be. */
export function overLimit(
  text: string,
  limits: RequestLimits,
): { limit: 'tokens'; tokens: number; max: number } | { limit: 'bytes'; max: number } | undefined {
  // The JSON body holds the text escaped, plus a few hundred bytes of options.
  const bytes = new TextEncoder().encode(JSON.stringify(text)).length + 512;
  if (bytes > limits.bodyLimit) return { limit: 'bytes', max: limits.bodyLimit };
  const tokens = tokensAtLeast(text);
  if (tokens > limits.maxInputTokens) {
    return { limit: 'tokens', tokens, max: limits.maxInputTokens };
  }
  return undefined;
}

/** At most `length` characters of `text` (whole characters), with … when cut. */
export function shortened(text: string, length = 200): string {
  const characters = Array.from(text.slice(0, length * 2));
  return characters.length > length || text.length > length * 2
    ? `${characters.slice(0, length).join('')}…`
    : text;
}
