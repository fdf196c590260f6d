import type { Chunk } from './types.ts';

/**
 * The text a chunk is embedded from: its document's title, its heading and its text, a line
 * each. Every backend embeds the same text, so vectors stay comparable across them.
 * @example embeddingTextOf('Parking', { heading: 'Badges', text: 'Badges open the garage.' })
 * // 'Parking\nBadges\nBadges open the garage.'
 */
export function embeddingTextOf(title: string, chunk: Pick<Chunk, 'heading' | 'text'>): string {
  return `${title}\n${chunk.heading}\n${chunk.text}`;
}
