import { type AnalysisSettings, type Analyzer, buildAnalyzer } from './analysis.ts';
import { allowKeys, FakeOpenSearchError } from './fake-errors.ts';

/** A mapped field as the fake understands it. */
export type FieldMapping =
  | { type: 'keyword' }
  | { type: 'integer' | 'long' }
  | { type: 'text'; indexed: boolean; analyzer: Analyzer }
  | { type: 'object' }
  | { type: 'knn_vector'; dimension: number; space: 'cosinesimil' | 'l2' };

/** An index's mappings: its fields, what `_source` leaves out, and how unknown fields are met. */
export interface IndexMappings {
  fields: Map<string, FieldMapping>;
  sourceExcludes: Set<string>;
  dynamic: 'strict' | 'false';
}

/**
 * Reads `mappings` of an index creation: keyword, text (with an analyzer, or `index:
 * false`), integer, long, object (`enabled: false`) and knn_vector (HNSW, lucene engine)
 * fields; `dynamic` strict or false; `_source.excludes` by exact name; `_meta` kept as is.
 */
export function parseMappings(
  mappings: unknown,
  analysis: AnalysisSettings,
  plugins: Set<string>,
): IndexMappings {
  const body = allowKeys(mappings ?? {}, ['dynamic', '_meta', '_source', 'properties'], 'mappings');
  const dynamic = String(body.dynamic ?? 'true');
  if (dynamic !== 'strict' && dynamic !== 'false')
    throw FakeOpenSearchError.unsupported(`dynamic mappings (dynamic: ${dynamic})`);
  const source = allowKeys(body._source ?? {}, ['excludes'], 'mappings._source');
  const excludes = ((source.excludes as unknown[]) ?? []).map(String);
  if (excludes.some((name) => name.includes('*') || name.includes('.')))
    throw FakeOpenSearchError.unsupported('_source.excludes patterns or paths');
  const fields = new Map<string, FieldMapping>();
  const properties = allowKeys(
    body.properties ?? {},
    Object.keys(body.properties ?? {}),
    'properties',
  );
  for (const [name, value] of Object.entries(properties)) {
    fields.set(name, parseField(name, value, analysis, plugins));
  }
  return { fields, sourceExcludes: new Set(excludes), dynamic };
}

function parseField(
  name: string,
  value: unknown,
  analysis: AnalysisSettings,
  plugins: Set<string>,
): FieldMapping {
  const where = `mapping of [${name}]`;
  const type = String((value as { type?: unknown })?.type ?? 'object');
  if (type === 'keyword' || type === 'integer' || type === 'long') {
    allowKeys(value, ['type'], where);
    return { type };
  }
  if (type === 'text') {
    const field = allowKeys(value, ['type', 'analyzer', 'index'], where);
    const indexed = field.index !== false;
    if (!indexed) return { type: 'text', indexed, analyzer: () => [] };
    return {
      type: 'text',
      indexed,
      analyzer: buildAnalyzer(String(field.analyzer ?? 'standard'), analysis, plugins),
    };
  }
  if (type === 'object') {
    const field = allowKeys(value, ['type', 'enabled'], where);
    if (field.enabled !== false)
      throw FakeOpenSearchError.unsupported(`object fields other than enabled: false ([${name}])`);
    return { type: 'object' };
  }
  if (type === 'knn_vector' && plugins.has('opensearch-knn')) {
    const field = allowKeys(value, ['type', 'dimension', 'method'], where);
    const method = allowKeys(
      field.method,
      ['name', 'space_type', 'engine', 'parameters'],
      `${where}.method`,
    );
    allowKeys(method.parameters ?? {}, ['m', 'ef_construction'], `${where}.method.parameters`);
    const space = String(method.space_type ?? 'l2');
    if (
      method.name !== 'hnsw' ||
      method.engine !== 'lucene' ||
      (space !== 'cosinesimil' && space !== 'l2')
    )
      throw FakeOpenSearchError.unsupported(`knn_vector method ${JSON.stringify(method)}`);
    const dimension = Number(field.dimension);
    if (!Number.isInteger(dimension) || dimension < 1)
      throw new FakeOpenSearchError(
        400,
        'mapper_parsing_exception',
        `Dimension value must be a positive integer for [${name}]`,
      );
    return { type: 'knn_vector', dimension, space };
  }
  throw new FakeOpenSearchError(
    400,
    'mapper_parsing_exception',
    `No handler for type [${type}] declared on field [${name}]`,
  );
}

/** Checks a document against the mappings, as indexing does: unknown fields under strict, wrong types, vector sizes. */
export function checkSource(
  id: string,
  source: Record<string, unknown>,
  mappings: IndexMappings,
): void {
  for (const [name, value] of Object.entries(source)) {
    const field = mappings.fields.get(name);
    if (field === undefined) {
      if (mappings.dynamic === 'false') continue;
      throw new FakeOpenSearchError(
        400,
        'strict_dynamic_mapping_exception',
        `mapping set to strict, dynamic introduction of [${name}] within [_doc] is not allowed`,
      );
    }
    const wrong = () =>
      new FakeOpenSearchError(
        400,
        'mapper_parsing_exception',
        `failed to parse field [${name}] of type [${field.type}] in document with id '${id}'`,
      );
    if (value === null) continue;
    if ((field.type === 'keyword' || field.type === 'text') && typeof value !== 'string')
      throw wrong();
    if ((field.type === 'integer' || field.type === 'long') && !Number.isInteger(value))
      throw wrong();
    if (field.type === 'knn_vector') {
      if (!Array.isArray(value) || value.some((item) => typeof item !== 'number')) throw wrong();
      if (value.length !== field.dimension)
        throw new FakeOpenSearchError(
          400,
          'mapper_parsing_exception',
          `Vector dimension mismatch. Expected: ${field.dimension}, Given: ${value.length}`,
        );
    }
  }
}
