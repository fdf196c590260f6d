import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** gpt-tokenizer's encoding API (count, encode, decode) for one set of ranks. */
export type EncodingApi = ReturnType<
  typeof import('gpt-tokenizer/GptEncoding').GptEncoding.getEncodingApi
>;

const require = createRequire(import.meta.url);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * o200k's ranks as gpt-tokenizer's own module spells them — a token's text when its bytes are
 * UTF-8 that reads back the same, else its bytes — read from the tiktoken file the package
 * ships (one `base64 rank` line per token). The package's module holds the same table as a
 * 2.4 MB array literal: compiling it costs ~20 MB more resident memory and ~5 MB more heap
 * than parsing the file.
 */
export function readO200kRanks(): Array<string | number[]> {
  const text = readFileSync(require.resolve('gpt-tokenizer/data/o200k_base.tiktoken'), 'latin1');
  const ranks: Array<string | number[]> = [];
  let at = 0;
  while (at < text.length) {
    const newline = text.indexOf('\n', at);
    const end = newline < 0 ? text.length : newline;
    if (end > at) {
      const space = text.indexOf(' ', at);
      const bytes = Buffer.from(text.slice(at, space), 'base64');
      ranks[Number(text.slice(space + 1, end))] = asRankValue(bytes);
    }
    at = end + 1;
  }
  return ranks;
}

/** A token's text, or its bytes when they are not UTF-8 or decoding changes them (a BOM). */
function asRankValue(bytes: Buffer): string | number[] {
  let decoded: string;
  try {
    decoded = utf8.decode(bytes);
  } catch {
    return [...bytes];
  }
  return Buffer.byteLength(decoded, 'utf8') === bytes.length ? decoded : [...bytes];
}

/** gpt-tokenizer's o200k_base encoding, built from the package's tiktoken file. */
export function loadO200kTokenizer(): EncodingApi {
  const { GptEncoding } =
    require('gpt-tokenizer/GptEncoding') as typeof import('gpt-tokenizer/GptEncoding');
  return GptEncoding.getEncodingApi('o200k_base', readO200kRanks);
}
