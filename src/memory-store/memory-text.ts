import { indexTerms, keywordTokens } from '../knowledge/index.ts';

/**
 * The text keyword search reads for an item: its namespace segments, its key, and every
 * string, number and object key of its value (a string value is its own text).
 */
export function memorySearchText(namespace: string, key: string, value: unknown): string {
  const parts = [...namespace.split('/'), key];
  const visit = (node: unknown): void => {
    if (typeof node === 'string') parts.push(node);
    else if (typeof node === 'number' || typeof node === 'boolean') parts.push(String(node));
    else if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === 'object') {
      for (const [name, child] of Object.entries(node)) {
        parts.push(name);
        visit(child);
      }
    }
  };
  visit(value);
  return parts.join('\n');
}

/** The keyword tokens of a text (the knowledge base's Korean-aware analysis), in order. */
export function memoryTokens(text: string): string[] {
  return keywordTokens(indexTerms(text));
}

/** Each token's count. */
export function countTokens(tokens: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

/** Cosine similarity of two vectors of the same length (0 when either is all zeros). */
export function cosine(left: Float32Array, right: Float32Array): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) {
    const a = left[index] as number;
    const b = right[index] as number;
    dot += a * b;
    leftNorm += a * a;
    rightNorm += b * b;
  }
  return leftNorm === 0 || rightNorm === 0 ? 0 : dot / Math.sqrt(leftNorm * rightNorm);
}
