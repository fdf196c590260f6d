/** Lucene's BM25 parameters (OpenSearch's defaults). */
const k1 = 1.2;
const b = 0.75;

/** An analysed text field of one document: its terms, in order (duplicates count). */
export interface FieldTerms {
  terms: string[];
  /** Term frequencies, built once. */
  frequencies: Map<string, number>;
}

/** Field statistics over the searchable documents, as Lucene keeps them per shard. */
export interface FieldStatistics {
  /** Documents with at least one term in the field. */
  documentCount: number;
  sumTotalTermFrequency: number;
  /** Documents holding each term. */
  documentFrequency: Map<string, number>;
}

/** Analysed terms of a field value, with their frequencies. */
export function fieldTermsOf(terms: string[]): FieldTerms {
  const frequencies = new Map<string, number>();
  for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
  return { terms, frequencies };
}

/** Gathers a field's statistics over documents. */
export function statisticsOf(fields: Iterable<FieldTerms | undefined>): FieldStatistics {
  const statistics: FieldStatistics = {
    documentCount: 0,
    sumTotalTermFrequency: 0,
    documentFrequency: new Map(),
  };
  for (const field of fields) {
    if (field === undefined || field.terms.length === 0) continue;
    statistics.documentCount += 1;
    statistics.sumTotalTermFrequency += field.terms.length;
    for (const term of field.frequencies.keys())
      statistics.documentFrequency.set(term, (statistics.documentFrequency.get(term) ?? 0) + 1);
  }
  return statistics;
}

// Lucene stores a field's length in one byte (SmallFloat.intToByte4): exact below 24,
// then 4 significant bits. BM25 sees the decoded length, so the fake does too.
const maxInt4 = longToInt4(2 ** 31 - 1);
const numberOfFreeValues = 255 - maxInt4;

function longToInt4(value: number): number {
  const bits = value === 0 ? 0 : value.toString(2).length;
  if (bits < 4) return value;
  const shift = bits - 4;
  return (Math.floor(value / 2 ** shift) & 0x07) | ((shift + 1) << 3);
}

function int4ToLong(value: number): number {
  const bits = value & 0x07;
  const shift = (value >>> 3) - 1;
  return shift === -1 ? bits : (bits | 0x08) * 2 ** shift;
}

/** The field length BM25 sees after Lucene's one-byte norm encoding. */
export function encodedLength(length: number): number {
  if (length < numberOfFreeValues) return length;
  const encoded = numberOfFreeValues + longToInt4(length - numberOfFreeValues);
  return numberOfFreeValues + int4ToLong(encoded - numberOfFreeValues);
}

/**
 * Lucene's BM25 score of one query term in one field (k1 1.2, b 0.75):
 * boost · idf · tf / (tf + k1 · (1 − b + b · dl / avgdl)), idf = ln(1 + (N − n + 0.5) / (n + 0.5)).
 */
export function termScore(
  term: string,
  field: FieldTerms,
  statistics: FieldStatistics,
  boost: number,
): number | undefined {
  const frequency = field.frequencies.get(term);
  if (frequency === undefined) return undefined;
  const documentFrequency = statistics.documentFrequency.get(term) ?? 0;
  const idf = Math.log(
    1 + (statistics.documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5),
  );
  const averageLength = statistics.sumTotalTermFrequency / statistics.documentCount;
  const norm = k1 * (1 - b + (b * encodedLength(field.terms.length)) / averageLength);
  return boost * idf * (frequency / (frequency + norm));
}
