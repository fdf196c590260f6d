import { type FieldStatistics, type FieldTerms, termScore } from './bm25.ts';
import { allowKeys, FakeOpenSearchError } from './fake-errors.ts';
import type { FieldMapping } from './mapping.ts';

/** A document as queries see it: analysed text, exact values and vectors by field. */
export interface IndexedEntry {
  id: string;
  text: Map<string, FieldTerms>;
  values: Map<string, unknown>;
  vectors: Map<string, number[]>;
}

/** What a query needs of its index. */
export interface QueryContext {
  field(name: string): FieldMapping | undefined;
  /** BM25 statistics of a text field over the searchable documents. */
  statistics(name: string): FieldStatistics;
}

/** A compiled query: the document's score, or undefined when it does not match. */
export type Matcher = (entry: IndexedEntry) => number | undefined;

/** A top-level `knn` query: the `k` nearest vectors of a field. */
export interface KnnQuery {
  field: string;
  vector: number[];
  k: number;
}

const singleKey = (value: unknown, where: string): [string, unknown] => {
  const entries = Object.entries(allowKeys(value, Object.keys(value ?? {}), where));
  if (entries.length !== 1)
    throw new FakeOpenSearchError(
      400,
      'parsing_exception',
      `[${where}] query malformed, expected one field`,
    );
  return entries[0] as [string, unknown];
};

/** Reads a top-level `{"knn": {FIELD: {vector, k}}}`, or undefined for another query. */
export function knnQueryOf(query: unknown, context: QueryContext): KnnQuery | undefined {
  const [kind, body] = singleKey(query, 'query');
  if (kind !== 'knn') return undefined;
  const [field, options] = singleKey(body, 'knn');
  const { vector, k } = allowKeys(options, ['vector', 'k'], 'knn');
  const mapping = context.field(field);
  if (mapping?.type !== 'knn_vector')
    throw new FakeOpenSearchError(
      400,
      'query_shard_exception',
      `Field '${field}' is not knn_vector type.`,
    );
  if (!Array.isArray(vector) || vector.length !== mapping.dimension)
    throw new FakeOpenSearchError(
      400,
      'query_shard_exception',
      `Query vector has invalid dimension: ${Array.isArray(vector) ? vector.length : 0}. Dimension should be: ${mapping.dimension}`,
    );
  if (!Number.isInteger(k) || (k as number) < 1)
    throw new FakeOpenSearchError(400, 'parsing_exception', '[knn] requires k > 0');
  return { field, vector: vector as number[], k: k as number };
}

/**
 * Compiles the query DSL Yeoul uses: `multi_match` (type `most_fields`, BM25 per field with
 * boosts, summed), `bool` (must, should, filter, must_not), and, where the score does not
 * matter (`scoring` false, or inside filter / must_not), `term`, `range` and `match_all`.
 * Anything else is refused with a 400.
 */
export function compileQuery(query: unknown, context: QueryContext, scoring: boolean): Matcher {
  const [kind, body] = singleKey(query, 'query');
  if (kind === 'multi_match') return multiMatch(body, context);
  if (kind === 'bool') return bool(body, context, scoring);
  if (scoring)
    throw FakeOpenSearchError.unsupported(`scoring of [${kind}] queries (use it in a filter)`);
  if (kind === 'match_all') {
    allowKeys(body, [], 'match_all');
    return () => 0;
  }
  if (kind === 'term') {
    const [field, value] = singleKey(body, 'term');
    const wanted =
      typeof value === 'object' && value !== null
        ? allowKeys(value, ['value'], 'term').value
        : value;
    const mapping = indexedField(field, context);
    if (mapping.type === 'text')
      return (entry) => (entry.text.get(field)?.frequencies.has(String(wanted)) ? 0 : undefined);
    return (entry) => (entry.values.get(field) === wanted ? 0 : undefined);
  }
  if (kind === 'range') {
    const [field, bounds] = singleKey(body, 'range');
    const { lt, lte, gt, gte } = allowKeys(bounds, ['lt', 'lte', 'gt', 'gte'], 'range') as Record<
      string,
      number | undefined
    >;
    indexedField(field, context);
    return (entry) => {
      const value = entry.values.get(field);
      if (typeof value !== 'number') return undefined;
      const inside =
        (lt === undefined || value < lt) &&
        (lte === undefined || value <= lte) &&
        (gt === undefined || value > gt) &&
        (gte === undefined || value >= gte);
      return inside ? 0 : undefined;
    };
  }
  throw new FakeOpenSearchError(400, 'parsing_exception', `unknown query [${kind}]`);
}

function indexedField(name: string, context: QueryContext): FieldMapping {
  const mapping = context.field(name);
  if (
    mapping === undefined ||
    mapping.type === 'object' ||
    mapping.type === 'knn_vector' ||
    (mapping.type === 'text' && !mapping.indexed)
  )
    throw new FakeOpenSearchError(
      400,
      'query_shard_exception',
      `failed to create query: Cannot search on field [${name}] since it is not indexed.`,
    );
  return mapping;
}

function multiMatch(body: unknown, context: QueryContext): Matcher {
  const { query, type, fields } = allowKeys(body, ['query', 'type', 'fields'], 'multi_match');
  if (type !== 'most_fields')
    throw FakeOpenSearchError.unsupported(`multi_match of type [${String(type ?? 'best_fields')}]`);
  if (!Array.isArray(fields) || fields.length === 0)
    throw FakeOpenSearchError.unsupported('multi_match without fields');
  const clauses = fields.map((spec) => {
    const [name, boost] = String(spec).split('^') as [string, string | undefined];
    const mapping = indexedField(name, context);
    if (mapping.type !== 'text')
      throw FakeOpenSearchError.unsupported(`multi_match on [${mapping.type}] field [${name}]`);
    // Each analysed token is a SHOULD clause of its own, duplicates included (as Lucene's QueryBuilder makes them).
    return {
      name,
      boost: boost === undefined ? 1 : Number(boost),
      terms: mapping.analyzer(String(query)),
      statistics: context.statistics(name),
    };
  });
  return (entry) => {
    let total: number | undefined;
    for (const clause of clauses) {
      const field = entry.text.get(clause.name);
      if (field === undefined) continue;
      for (const term of clause.terms) {
        const score = termScore(term, field, clause.statistics, clause.boost);
        if (score !== undefined) total = (total ?? 0) + score;
      }
    }
    return total;
  };
}

function bool(body: unknown, context: QueryContext, scoring: boolean): Matcher {
  const parts = allowKeys(body, ['must', 'should', 'filter', 'must_not'], 'bool');
  const list = (value: unknown) =>
    value === undefined ? [] : Array.isArray(value) ? value : [value];
  const must = list(parts.must).map((clause) => compileQuery(clause, context, scoring));
  const should = list(parts.should).map((clause) => compileQuery(clause, context, scoring));
  const filter = list(parts.filter).map((clause) => compileQuery(clause, context, false));
  const mustNot = list(parts.must_not).map((clause) => compileQuery(clause, context, false));
  const shouldRequired = must.length === 0 && filter.length === 0;
  return (entry) => {
    if (filter.some((clause) => clause(entry) === undefined)) return undefined;
    if (mustNot.some((clause) => clause(entry) !== undefined)) return undefined;
    let score = 0;
    for (const clause of must) {
      const value = clause(entry);
      if (value === undefined) return undefined;
      score += value;
    }
    let matchedShould = false;
    for (const clause of should) {
      const value = clause(entry);
      if (value !== undefined) {
        matchedShould = true;
        score += value;
      }
    }
    return shouldRequired && should.length > 0 && !matchedShould ? undefined : score;
  };
}
