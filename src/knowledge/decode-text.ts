import iconv from 'iconv-lite';
import { UnsupportedDocumentError } from './errors/unsupported-document-error.ts';
import { UnsupportedEncodingError } from './errors/unsupported-encoding-error.ts';

/** The encodings text files are read in. */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'cp949';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a text file's bytes: UTF-8 (with or without BOM), UTF-16 with a BOM, or
 * EUC-KR/CP949 (detected; iconv-lite, because Node's own `euc-kr` decoder turns CP949's
 * extension syllables such as 똠 into Latin letters without a word). Anything else —
 * Latin-1 and other legacy encodings — is refused rather than stored as mojibake.
 */
export function decodeText(
  data: Uint8Array,
  source: string,
): { text: string; encoding: TextEncoding } {
  if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) {
    return { text: utf8(data.subarray(3), source), encoding: 'utf-8' };
  }
  if (data[0] === 0xff && data[1] === 0xfe) {
    return { text: utf16(data.subarray(2), 'utf-16le', source), encoding: 'utf-16le' };
  }
  if (data[0] === 0xfe && data[1] === 0xff) {
    return { text: utf16(data.subarray(2), 'utf-16be', source), encoding: 'utf-16be' };
  }
  if (data.includes(0)) {
    throw new UnsupportedDocumentError({ source, reason: 'it looks binary, not text' });
  }
  try {
    return { text: strictUtf8.decode(data), encoding: 'utf-8' };
  } catch {
    const text = cp949(data);
    if (text === undefined) throw new UnsupportedEncodingError({ source });
    return { text, encoding: 'cp949' };
  }
}

function utf8(data: Uint8Array, source: string): string {
  try {
    return strictUtf8.decode(data);
  } catch {
    throw new UnsupportedEncodingError({ source });
  }
}

function utf16(data: Uint8Array, encoding: 'utf-16le' | 'utf-16be', source: string): string {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(data);
  } catch {
    throw new UnsupportedEncodingError({ source });
  }
}

/**
 * The text when the bytes are well-formed CP949 that reads as Korean: every byte pair
 * decodes, and most characters beyond ASCII are Hangul. Latin-1 accents followed by
 * letters can form valid pairs by chance, but not text that is mostly Hangul.
 */
function cp949(data: Uint8Array): string | undefined {
  const text = iconv.decode(Buffer.from(data.buffer, data.byteOffset, data.byteLength), 'cp949');
  if (text.includes('\uFFFD')) return undefined;
  let beyondAscii = 0;
  let hangul = 0;
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    if (code < 0x80) continue;
    beyondAscii += 1;
    if ((code >= 0xac00 && code <= 0xd7a3) || (code >= 0x3131 && code <= 0x318e)) hangul += 1;
  }
  return beyondAscii > 0 && hangul / beyondAscii >= 0.6 ? text : undefined;
}
