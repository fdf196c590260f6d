import { countTokens, truncateToTokens } from '../models/index.ts';
import type { Chunk } from './types.ts';

/** A piece of a parsed document: a heading, or a run of text under the last heading. */
export type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'text'; text: string };

/** Chunk sizes, in tokens. */
export interface ChunkOptions {
  /** Largest chunk (default 300). */
  maxTokens?: number;
  /** Text repeated from the end of one chunk at the start of the next in the same section (default 40). */
  overlapTokens?: number;
}

/**
 * Cuts a document into chunks along its structure: a chunk never spans two sections,
 * carries the headings above it, and holds whole paragraphs (or whole sentences of a
 * long paragraph) up to `maxTokens`, overlapping the previous chunk of its section.
 */
export function chunkBlocks(
  documentId: string,
  blocks: Block[],
  options: ChunkOptions = {},
): Chunk[] {
  const maxTokens = options.maxTokens ?? 300;
  const overlapTokens = Math.min(options.overlapTokens ?? 40, Math.floor(maxTokens / 3));
  const chunks: Chunk[] = [];
  const headings: string[] = [];
  let pieces: string[] = [];
  let tokens = 0;
  const flush = (keepOverlap: boolean) => {
    if (pieces.length === 0) return;
    const text = pieces.join('\n\n');
    chunks.push({
      id: `${documentId}#${chunks.length}`,
      documentId,
      position: chunks.length,
      heading: headings.filter(Boolean).join(' > '),
      text,
      tokenCount: countTokens(text),
    });
    pieces = keepOverlap ? overlapOf(pieces, overlapTokens) : [];
    tokens = pieces.reduce((sum, piece) => sum + countTokens(piece), 0);
  };
  for (const block of blocks) {
    if (block.kind === 'heading') {
      flush(false);
      headings.length = Math.max(0, block.level - 1);
      headings[block.level - 1] = block.text.trim();
      continue;
    }
    for (const piece of piecesOf(block.text, maxTokens - overlapTokens)) {
      const size = countTokens(piece);
      if (tokens + size > maxTokens && pieces.length > 0) flush(true);
      pieces.push(piece);
      tokens += size;
    }
  }
  flush(false);
  return chunks;
}

/** A paragraph, or its sentences when it is too long, or token slices of a sentence too long. */
function piecesOf(text: string, maxTokens: number): string[] {
  const paragraph = text.trim();
  if (paragraph === '') return [];
  if (countTokens(paragraph) <= maxTokens) return [paragraph];
  const sentences = paragraph
    .split(/(?<=[.!?。])\s+|\n+/)
    .filter((sentence) => sentence.trim() !== '');
  // A token is rarely longer than 8 characters, so cutting a huge sentence into spans of
  // maxTokens × 8 characters first keeps the token loop below linear in the text.
  const span = maxTokens * 8;
  const spans = sentences.flatMap((sentence) =>
    sentence.length <= span
      ? [sentence]
      : Array.from({ length: Math.ceil(sentence.length / span) }, (_, index) =>
          sentence.slice(index * span, (index + 1) * span),
        ),
  );
  return spans.flatMap((sentence) => {
    const slices: string[] = [];
    let rest = sentence.trim();
    while (countTokens(rest) > maxTokens) {
      const head = truncateToTokens(rest, maxTokens);
      slices.push(head);
      rest = rest.slice(head.length).trim();
    }
    if (rest !== '') slices.push(rest);
    return slices;
  });
}

/** The last pieces (whole sentences where possible) worth at most `overlapTokens`. */
function overlapOf(pieces: string[], overlapTokens: number): string[] {
  if (overlapTokens <= 0) return [];
  const last = pieces.at(-1) ?? '';
  const sentences = last.split(/(?<=[.!?。])\s+/);
  const kept: string[] = [];
  let tokens = 0;
  for (let index = sentences.length - 1; index >= 0; index -= 1) {
    const sentence = sentences[index] as string;
    const size = countTokens(sentence);
    if (tokens + size > overlapTokens) break;
    kept.unshift(sentence);
    tokens += size;
  }
  return kept.length > 0 ? [kept.join(' ')] : [];
}
